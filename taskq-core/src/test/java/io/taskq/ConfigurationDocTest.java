package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.core.internal.config.CrossRule;
import io.taskq.core.internal.config.Knob;
import io.taskq.core.internal.config.KnobCatalog;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Keeps {@code docs/configuration.md}, the accessors' Javadoc and the public API in step with
 * {@code KnobCatalog}, the one place knobs are defined.
 */
@Tag("T1")
class ConfigurationDocTest {
  private static final Path DOC = Path.of("..", "docs", "configuration.md");
  private static final Path SOURCE =
      Path.of("src", "main", "java", "io", "taskq", "TaskQConfig.java");
  private static final Pattern VARIABLE = Pattern.compile("TASKQ_[A-Z0-9][A-Z0-9_]*");
  private static final Pattern DELIBERATELY_UNKNOWN =
      Pattern.compile("<!-- deliberately unknown: (TASKQ_[A-Z0-9_]+)");
  private static final Set<String> NON_KNOB_METHODS =
      Set.of("describe", "newBuilder", "equals", "hashCode", "toString", "build", "setProperty");

  @Test
  void theDocumentation_hasARowForEveryKnob() throws IOException {
    Map<String, List<String>> rows = tableRows(Files.readString(DOC, StandardCharsets.UTF_8));

    for (Knob<?> knob : KnobCatalog.all()) {
      List<String> row = rows.get(knob.envName());
      assertThat(row).as("row for %s in %s", knob.envName(), DOC).isNotNull();
      String bareUnit = knob.type().bareUnit().isEmpty() ? "-" : knob.type().bareUnit();
      assertThat(row.subList(0, 6))
          .as(knob.envName())
          .containsExactly(
              knob.envName(),
              knob.accessor() + "()",
              knob.type().javaType(),
              knob.defaultText(),
              knob.rule().describe(),
              bareUnit);
      assertThat(row.get(6)).as("meaning of " + knob.envName()).hasSizeGreaterThan(15);
    }
    assertThat(rows).hasSameSizeAs(KnobCatalog.all());
  }

  @Test
  void theDocumentation_namesNoVariableTheCodeDoesNotKnow() throws IOException {
    String doc = Files.readString(DOC, StandardCharsets.UTF_8);
    Set<String> examples = new TreeSet<>();
    Matcher declared = DELIBERATELY_UNKNOWN.matcher(doc);
    while (declared.find()) {
      examples.add(declared.group(1));
    }
    Set<String> unknown = new TreeSet<>();
    Matcher m = VARIABLE.matcher(doc);
    while (m.find()) {
      String name = m.group();
      boolean foreign = KnobCatalog.FOREIGN_PREFIXES.stream().anyMatch(name::startsWith);
      if (KnobCatalog.byEnvName(name) == null && !foreign && !examples.contains(name)) {
        unknown.add(name);
      }
    }
    assertThat(unknown).as("TASKQ_ variables in %s that are no knob", DOC).isEmpty();
    assertThat(examples).allMatch(name -> KnobCatalog.byEnvName(name) == null);
  }

  @Test
  void theDocumentation_statesEveryRuleBetweenKnobs() throws IOException {
    String doc = Files.readString(DOC, StandardCharsets.UTF_8);

    for (CrossRule rule : KnobCatalog.crossRules()) {
      assertThat(doc).contains("- `" + rule.describe() + "`: " + rule.why() + ".");
    }
  }

  @Test
  void theDocumentedErrorExample_isWhatBuildReallySays() throws IOException {
    String doc = Files.readString(DOC, StandardCharsets.UTF_8);
    TaskQConfig.Builder builder =
        TaskQConfig.builder(
                Map.of(
                    "TASKQ_EVENT_WRITER_BATCH_SIZE", "0",
                    "TASKQ_SWEEP_INTERVAL", "soon",
                    "TASKQ_SWEEP_INTERVALL", "30s"))
            .heartbeatInterval(java.time.Duration.ofSeconds(30));

    TaskQConfigException e = TaskQConfigErrorsTest.rejected(builder);

    assertThat(doc).contains("```\n" + e.getMessage() + "\n```");
  }

  /**
   * The accessors' Javadoc says what a knob is; its default and range are stated once, in the
   * catalog and on this page, so the Javadoc carries no copy that could drift from them.
   */
  @Test
  void everyAccessorsJavadoc_leavesDefaultAndRangeToTheCatalog() throws IOException {
    String source = Files.readString(SOURCE, StandardCharsets.UTF_8);

    for (Knob<?> knob : KnobCatalog.all()) {
      Matcher m =
          Pattern.compile(
                  "/\\*\\*((?:(?!\\*/).)*)\\*/\\s*public [^(]+ " + knob.accessor() + "\\(\\)",
                  Pattern.DOTALL)
              .matcher(source);
      assertThat(m.find()).as("Javadoc of %s()", knob.accessor()).isTrue();
      String text = m.group(1).replaceAll("\\s*\\n\\s*\\*\\s?", " ").strip();
      assertThat(text).as("Javadoc of %s()", knob.accessor()).startsWith("{@return ");
      assertThat(text)
          .as("Javadoc of %s()", knob.accessor())
          .doesNotContain("Default:")
          .doesNotContain(knob.rule().describe());
    }
  }

  @Test
  void everyKnob_hasAnAccessorOfItsTypeAndASetter() throws NoSuchMethodException {
    for (Knob<?> knob : KnobCatalog.all()) {
      Method accessor = TaskQConfig.class.getMethod(knob.accessor());
      String type = accessor.getGenericReturnType().getTypeName().replaceAll("[a-z.]+\\.", "");
      assertThat(type).as(knob.accessor()).isEqualTo(knob.type().javaType());
      assertThat(
              Arrays.stream(TaskQConfig.Builder.class.getMethods())
                  .anyMatch(setter -> setter.getName().equals(knob.accessor())))
          .as("setter " + knob.accessor())
          .isTrue();
    }
  }

  @Test
  void theConfigurationHasNoPublicAccessorOutsideTheCatalog() {
    Set<String> knobs = new TreeSet<>();
    KnobCatalog.all().forEach(knob -> knobs.add(knob.accessor()));
    for (Class<?> type : List.of(TaskQConfig.class, TaskQConfig.Builder.class)) {
      for (Method method : type.getDeclaredMethods()) {
        boolean instanceApi =
            Modifier.isPublic(method.getModifiers()) && !Modifier.isStatic(method.getModifiers());
        if (instanceApi && !NON_KNOB_METHODS.contains(method.getName())) {
          assertThat(knobs)
              .as("%s.%s", type.getSimpleName(), method.getName())
              .contains(method.getName());
        }
      }
    }
  }

  /** The rows of every knob table, by variable; cells without backticks and the {@code ()}. */
  private static Map<String, List<String>> tableRows(String doc) {
    Map<String, List<String>> rows = new HashMap<>();
    for (String line : doc.lines().toList()) {
      if (!line.startsWith("| `TASKQ_")) {
        continue;
      }
      List<String> cells =
          Arrays.stream(line.substring(1, line.length() - 1).split(" \\| ", -1))
              .map(cell -> cell.strip().replace("`", ""))
              .toList();
      assertThat(cells).as(line).hasSize(7);
      assertThat(rows.put(cells.get(0), cells)).as("duplicate row " + cells.get(0)).isNull();
    }
    return rows;
  }
}
