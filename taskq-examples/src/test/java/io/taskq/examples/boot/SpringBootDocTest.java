package io.taskq.examples.boot;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * P1: the example section of docs/spring-boot.md shows the orders application's sources word for
 * word (DocSamplesTest compiles its Java blocks; OrdersApplicationTest runs the application).
 */
@Tag("P1")
class SpringBootDocTest {
  private static final Path ROOT = Path.of("..");
  private static final Path SOURCES = ROOT.resolve("taskq-examples/src/main");

  @ParameterizedTest
  @CsvSource({
    "java, java/io/taskq/examples/boot/OrdersApplication.java",
    "java, java/io/taskq/examples/boot/OrderDesk.java",
    "java, java/io/taskq/examples/boot/OrdersController.java",
    "properties, resources/application.properties",
    "sql, resources/io/taskq/examples/boot/schema.sql"
  })
  void theExampleSectionShowsEachSourceWordForWord(String fence, String file) throws IOException {
    String source = Files.readString(SOURCES.resolve(file));

    assertThat(Files.readString(ROOT.resolve("docs/spring-boot.md")))
        .contains("```" + fence + "\n" + source + "```\n");
  }
}
