package io.taskq.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * K3, K4: every module taskq-bom publishes has its signature file and runs both gates; nothing
 * turns them off for a published module. (ApiSignaturesTest shows the signature check failing; the
 * Javadoc gate is javadoc's own doclint, configured in the parent pom.)
 */
@Tag("K3")
@Tag("K4")
class PublishedModuleGatesTest {
  private static final Path ROOT = Path.of("..");
  private static final Pattern ARTIFACT =
      Pattern.compile("^        <artifactId>(taskq-[a-z0-9-]+)</artifactId>$", Pattern.MULTILINE);

  private static List<String> published() throws IOException {
    Matcher m = ARTIFACT.matcher(Files.readString(ROOT.resolve("taskq-bom/pom.xml")));
    List<String> modules = m.results().map(r -> r.group(1)).collect(Collectors.toList());
    assertThat(modules).as("taskq-bom's modules").contains("taskq-core", "taskq-postgres");
    return modules;
  }

  @Test
  void everyPublishedModule_hasItsSignatureFileAndDoesNotSkipTheCheck() throws IOException {
    for (String module : published()) {
      Path api = ROOT.resolve(module).resolve("api").resolve(module + ".api");
      assertThat(api).as("the signature file of %s", module).isRegularFile();
      assertThat(Files.readAllLines(api)).as("%s records its API", module).hasSizeGreaterThan(1);
      assertThat(pom(module)).as("%s's pom", module).doesNotContain("<taskq.api.skip>");
    }
  }

  @Test
  void javadocGate_isDoclintAllFailingOnWarnings_andNoPublishedModuleRelaxesIt()
      throws IOException {
    String parent = Files.readString(ROOT.resolve("pom.xml"));
    assertThat(parent)
        .contains(
            "<taskq.javadoc.doclint>all</taskq.javadoc.doclint>",
            "<taskq.javadoc.failOnWarnings>true</taskq.javadoc.failOnWarnings>",
            "<doclint>${taskq.javadoc.doclint}</doclint>",
            "<failOnWarnings>${taskq.javadoc.failOnWarnings}</failOnWarnings>",
            "<taskq.api.skip>false</taskq.api.skip>");
    for (String module : published()) {
      assertThat(pom(module))
          .as("%s's pom", module)
          .doesNotContain(
              "<taskq.javadoc.", "<maven.javadoc.skip>", "<doclint>", "<failOnWarnings>");
    }
  }

  private static String pom(String module) throws IOException {
    return Files.readString(ROOT.resolve(module).resolve("pom.xml"));
  }
}
