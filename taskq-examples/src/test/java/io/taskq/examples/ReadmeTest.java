package io.taskq.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * P1: the README shows exactly the quick start the build compiles (docs/quickstart, which CI also
 * builds and runs as a project of its own against the installed artifacts), and links every how-to
 * in docs/.
 */
@Tag("P1")
class ReadmeTest {
  private static final Path ROOT = Path.of("..");
  private static final Path QUICKSTART = ROOT.resolve("docs/quickstart");

  private static String readme() throws IOException {
    return Files.readString(ROOT.resolve("README.md"));
  }

  @Test
  void quickStartCode_isTheCompiledQuickStartWordForWord() throws IOException {
    String source =
        Files.readString(QUICKSTART.resolve("src/main/java/com/example/QuickStart.java"));

    assertThat(readme()).contains("```java\n" + source + "```\n");
    assertThat(source.lines().count()).as("about 15 lines of code").isLessThan(30);
  }

  @Test
  void dependencySnippet_isTheQuickStartProjectsDependenciesThroughTheBom() throws IOException {
    String pom = Files.readString(QUICKSTART.resolve("pom.xml"));
    int from = pom.indexOf("<!-- readme:dependencies -->\n");
    int to = pom.indexOf("  <!-- readme:end -->");
    assertThat(from).as("the marked region of docs/quickstart/pom.xml").isPositive();
    String snippet =
        pom.substring(from + "<!-- readme:dependencies -->\n".length(), to)
            .lines()
            .map(line -> line.startsWith("  ") ? line.substring(2) : line)
            .collect(Collectors.joining("\n", "", "\n"));

    assertThat(snippet).contains("<artifactId>taskq-bom</artifactId>", "<scope>import</scope>");
    assertThat(readme()).contains("```xml\n" + snippet + "```\n");
  }

  @Test
  void everyHowToInDocs_isLinkedFromTheReadme() throws IOException {
    List<String> docs;
    try (Stream<Path> files = Files.list(ROOT.resolve("docs"))) {
      docs =
          files
              .map(p -> p.getFileName().toString())
              .filter(name -> name.endsWith(".md"))
              .sorted()
              .toList();
    }
    String readme = readme();

    assertThat(docs).isNotEmpty();
    assertThat(docs).allSatisfy(doc -> assertThat(readme).contains("](docs/" + doc + ")"));
  }
}
