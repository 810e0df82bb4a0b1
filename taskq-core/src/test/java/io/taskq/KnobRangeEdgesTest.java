package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.taskq.core.internal.config.BadValueException;
import io.taskq.core.internal.config.DurationText;
import io.taskq.core.internal.config.Knob;
import io.taskq.core.internal.config.KnobCatalog;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * T1 range edges: a knob set exactly to its minimum or its maximum is accepted, one step past
 * either is refused with a message naming the variable, the value and the range. The edges are read
 * from the range each rule states, so an off-by-one in a rule's comparison fails here.
 */
@Tag("T1")
class KnobRangeEdgesTest {
  private static final Pattern RANGE =
      Pattern.compile("(?:^|[ ,])([0-9][0-9a-z]*)\\.\\.([0-9][0-9a-z]*)$");

  /** A knob's stated range: its edges and the step one past them, as the variable spells them. */
  record Edges(Knob<?> knob, String min, String max, String belowMin, String aboveMax) {
    @Override
    public String toString() {
      return knob.envName() + " " + knob.rule().describe();
    }
  }

  static Stream<Edges> rangedKnobs() {
    return KnobCatalog.all().stream().map(KnobRangeEdgesTest::edges).filter(e -> e != null);
  }

  private static @Nullable Edges edges(Knob<?> knob) {
    Matcher m = RANGE.matcher(knob.rule().describe());
    if (!m.find()) {
      return null;
    }
    String min = m.group(1);
    String max = m.group(2);
    String type = knob.type().javaType();
    if (type.equals("int")) {
      return new Edges(
          knob,
          min,
          max,
          Long.toString(Long.parseLong(min) - 1),
          Long.toString(Long.parseLong(max) + 1));
    }
    if (!type.equals("Duration")) {
      return null;
    }
    ChronoUnit step =
        knob.rule().describe().startsWith("whole seconds") ? ChronoUnit.SECONDS : ChronoUnit.MILLIS;
    Duration lo = duration(min);
    Duration hi = duration(max);
    return new Edges(
        knob, min, max, lo.minus(1, step).toMillis() + "ms", hi.plus(1, step).toMillis() + "ms");
  }

  private static Duration duration(String text) {
    try {
      return DurationText.parse(text, ChronoUnit.SECONDS);
    } catch (BadValueException e) {
      throw new AssertionError("range edge " + text + " does not parse", e);
    }
  }

  @Test
  void theCatalogHasRangedKnobsOfBothKinds() {
    List<Edges> all = rangedKnobs().toList();
    assertThat(all)
        .extracting(e -> e.knob().envName())
        .contains(
            "TASKQ_EVENT_WRITER_BATCH_SIZE",
            "TASKQ_PRUNE_BATCH_SIZE",
            "TASKQ_SWEEP_INTERVAL",
            "TASKQ_EVENT_WRITER_STATEMENT_TIMEOUT_MS");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rangedKnobs")
  void exactlyTheMaximumAndTheMinimum_areAccepted(Edges edges) {
    assertAccepted(edges.knob(), edges.max());
    assertAccepted(edges.knob(), edges.min());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rangedKnobs")
  void oneStepPastEitherEdge_isRefusedNamingTheVariableAndTheRange(Edges edges) {
    assertRefused(edges.knob(), edges.aboveMax());
    if (!edges.belowMin().startsWith("-") && !edges.belowMin().equals("0ms")) {
      assertRefused(edges.knob(), edges.belowMin());
    }
  }

  @Test
  void theBatchSizeEdgesAsT1SpellsThem() {
    Knob<?> knob = KnobCatalog.byEnvName("TASKQ_EVENT_WRITER_BATCH_SIZE");
    assertThat(TaskQConfig.fromEnv(Map.of(knob.envName(), "10000")).eventWriterBatchSize())
        .isEqualTo(10_000);
    assertThat(TaskQConfig.fromEnv(Map.of(knob.envName(), "1")).eventWriterBatchSize())
        .isEqualTo(1);
    assertThat(refused(Map.of(knob.envName(), "10001")).getMessage())
        .contains(
            "TASKQ_EVENT_WRITER_BATCH_SIZE='10001' (from the environment) is out of range;"
                + " allowed: 1..10000");
    assertThat(refused(Map.of(knob.envName(), "0")).getMessage())
        .contains("TASKQ_EVENT_WRITER_BATCH_SIZE='0'", "allowed: 1..10000");
    assertThat(TaskQConfig.fromEnv(Map.of("TASKQ_SWEEP_INTERVAL", "1d")).sweepInterval())
        .isEqualTo(Duration.ofDays(1));
    assertThat(refused(Map.of("TASKQ_SWEEP_INTERVAL", "86401s")).getMessage())
        .contains("TASKQ_SWEEP_INTERVAL='86401s'", "is above the maximum; allowed: 100ms..1d");
  }

  /** No problem of this knob alone (a rule between two knobs may still object to the pair). */
  private static void assertAccepted(Knob<?> knob, String value) {
    try {
      TaskQConfig.fromEnv(Map.of(knob.envName(), value));
    } catch (TaskQConfigException e) {
      assertThat(e.problems())
          .as("%s=%s is an edge of %s", knob.envName(), value, knob.rule().describe())
          .noneMatch(p -> p.variables().equals(List.of(knob.envName())));
    }
  }

  private static void assertRefused(Knob<?> knob, String value) {
    TaskQConfigException e = refused(Map.of(knob.envName(), value));
    assertThat(e.problems())
        .as("%s=%s is past %s", knob.envName(), value, knob.rule().describe())
        .anyMatch(
            p ->
                p.variables().equals(List.of(knob.envName()))
                    && p.message().contains(knob.envName() + "='" + value + "'")
                    && p.message().endsWith("allowed: " + knob.rule().describe()));
  }

  private static TaskQConfigException refused(Map<String, String> env) {
    TaskQConfigException e =
        catchThrowableOfType(TaskQConfigException.class, () -> TaskQConfig.fromEnv(env));
    assertThat(e).as("%s is refused", env).isNotNull();
    return e;
  }
}
