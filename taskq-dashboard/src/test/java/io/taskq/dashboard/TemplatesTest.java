package io.taskq.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * W5 at the source: no template uses Mustache's unescaped forms, none carries inline script or
 * style (the content security policy would block them anyway), and every attribute is quoted.
 */
@Tag("W5")
class TemplatesTest {
  private static final Path TEMPLATES = Path.of("src/main/resources/io/taskq/dashboard/templates");

  private static List<Path> templates() throws IOException {
    try (Stream<Path> files = Files.list(TEMPLATES)) {
      return files.filter(p -> p.toString().endsWith(".mustache")).sorted().toList();
    }
  }

  @Test
  void noTemplate_printsAValueUnescaped_orInlinesScriptOrStyle() throws IOException {
    List<Path> all = templates();
    assertThat(all).hasSizeGreaterThan(5);
    for (Path template : all) {
      String text = Files.readString(template, StandardCharsets.UTF_8);
      assertThat(text)
          .as(template.toString())
          .doesNotContain("{{{")
          .doesNotContain("{{&")
          .doesNotContain("<script>")
          .doesNotContain("style=")
          .doesNotContainPattern("\\son[a-z]+=")
          .doesNotContainPattern("\\s[a-z-]+=\\{\\{");
    }
  }
}
