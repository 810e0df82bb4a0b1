package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.taskq.core.internal.config.Knob;
import io.taskq.core.internal.config.KnobCatalog;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

@Tag("T1")
class TaskQConfigErrorsTest {

  static Stream<Arguments> badValues() {
    return KnobExamples.ALL.stream()
        .flatMap(example -> example.bad().stream().map(bad -> Arguments.of(example.env(), bad)));
  }

  static Stream<Knob<?>> knobs() {
    return KnobCatalog.all().stream();
  }

  static Stream<Knob<?>> numericKnobs() {
    return knobs().filter(knob -> List.of("int", "Duration").contains(knob.type().javaType()));
  }

  @ParameterizedTest(name = "{0}={1}")
  @MethodSource("badValues")
  void aBadValue_failsNamingTheVariableTheValueAndTheAllowedRange(String env, String bad) {
    Knob<?> knob = KnobCatalog.byEnvName(env);

    TaskQConfigException e = rejected(Map.of(env, bad));

    assertThat(e.problems()).hasSize(1);
    assertThat(e.problems().get(0).variables()).containsExactly(env);
    assertThat(e.getMessage())
        .startsWith("invalid TaskQ configuration (1 problem):\n  - " + env + "='")
        .contains("(from the environment)")
        .endsWith("; allowed: " + knob.rule().describe());
    if (bad.chars().noneMatch(Character::isISOControl)) {
      assertThat(e.getMessage()).contains(env + "='" + bad + "'");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("numericKnobs")
  void aNegativeValue_isRefused(Knob<?> knob) {
    String negative = knob.type().javaType().equals("int") ? "-1" : "-1s";

    TaskQConfigException e = rejected(Map.of(knob.envName(), negative));

    assertThat(e.getMessage()).contains(knob.envName() + "='" + negative + "'");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("numericKnobs")
  void zero_isAllowedOnlyWhereItMeansOff(Knob<?> knob) {
    Map<String, String> env = Map.of(knob.envName(), "0");
    if (KnobExamples.ZERO_ALLOWED.contains(knob.envName())) {
      assertThatCode(() -> TaskQConfig.fromEnv(env)).doesNotThrowAnyException();
      assertThat(knob.rule().describe()).startsWith("0");
    } else {
      assertThat(rejected(env).problems().get(0).variables()).containsExactly(knob.envName());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("knobs")
  void anEmptyValue_isRefusedUnlessTheKnobIsOptional(Knob<?> knob) {
    Map<String, String> env = Map.of(knob.envName(), "");
    if (knob.type().emptyMeansUnset()) {
      assertThat(TaskQConfig.fromEnv(env)).isEqualTo(TaskQConfig.defaults());
    } else {
      assertThat(rejected(env).getMessage())
          .contains(knob.envName() + "='' (from the environment)");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("knobs")
  void unparseableText_isRefused(Knob<?> knob) {
    if (KnobExamples.FREE_TEXT.contains(knob.envName())) {
      return;
    }
    assertThat(rejected(Map.of(knob.envName(), "not-a-value!")).getMessage())
        .contains(knob.envName() + "='not-a-value!' (from the environment) is not");
  }

  @Test
  void aDuration_namesTheAcceptedFormsAndTheBareUnit() {
    assertThat(rejected(Map.of("TASKQ_SWEEP_INTERVAL", "soon")).getMessage())
        .contains("is not a duration such as 500ms, 30s, 5m, 2h, 7d, 1h30m, PT30S")
        .contains("or a bare number of seconds; allowed: 100ms..1d");
    assertThat(rejected(Map.of("TASKQ_EVENT_WRITER_STATEMENT_TIMEOUT_MS", "x")).getMessage())
        .contains("or a bare number of milliseconds; allowed: 1ms..1h");
  }

  @Test
  void aValueSetInCode_isCheckedLikeOneFromTheEnvironment() {
    TaskQConfigException e =
        rejected(
            TaskQConfig.builder().eventWriterBatchSize(0).sweepInterval(Duration.ofSeconds(-5)));

    assertThat(e.getMessage())
        .contains(
            "TASKQ_EVENT_WRITER_BATCH_SIZE='0' (set in code via eventWriterBatchSize()) is out of"
                + " range; allowed: 1..10000",
            "TASKQ_SWEEP_INTERVAL='PT-5S' (set in code via sweepInterval()) must not be negative;"
                + " allowed: 100ms..1d");
  }

  @Test
  void pgjdbcTimeouts_mustBeWholeSeconds() {
    TaskQConfigException e =
        rejected(TaskQConfig.builder().connectTimeout(Duration.ofMillis(2500)));

    assertThat(e.getMessage())
        .contains("TASKQ_CONNECT_TIMEOUT='2500ms' (set in code via connectTimeout())")
        .contains("is not a whole number of seconds; allowed: whole seconds, 1s..10m");
  }

  @Test
  void theStatementTimeout_mustStayBelowTheVisibilityDelay() {
    TaskQConfigException e = rejected(Map.of("TASKQ_EVENT_WRITER_STATEMENT_TIMEOUT_MS", "2000"));

    assertThat(e.problems()).hasSize(1);
    assertThat(e.problems().get(0).variables())
        .containsExactly(
            "TASKQ_EVENT_WRITER_STATEMENT_TIMEOUT_MS", "TASKQ_RECLAIM_EVENT_VISIBILITY_DELAY");
    assertThat(e.getMessage())
        .contains(
            "TASKQ_EVENT_WRITER_STATEMENT_TIMEOUT_MS='2s' (from the environment) must be below"
                + " TASKQ_RECLAIM_EVENT_VISIBILITY_DELAY='2s' (default): a batch must finish"
                + " inside the visibility margin")
        .endsWith("; allowed: less than 2s");
  }

  @Test
  void raisingTheVisibilityDelay_letsTheStatementTimeoutGrowWithIt() {
    TaskQConfig config =
        TaskQConfig.fromEnv(
            Map.of(
                "TASKQ_RECLAIM_EVENT_VISIBILITY_DELAY", "4",
                "TASKQ_EVENT_WRITER_STATEMENT_TIMEOUT_MS", "3500"));

    assertThat(config.eventWriterStatementTimeout()).isEqualTo(Duration.ofMillis(3500));
  }

  @Test
  void theHeartbeat_mustBeShorterThanTheLease() {
    TaskQConfigException e =
        rejected(TaskQConfig.builder().heartbeatInterval(Duration.ofSeconds(30)));

    assertThat(e.problems()).hasSize(1);
    assertThat(e.getMessage())
        .contains(
            "TASKQ_HEARTBEAT_INTERVAL='30s' (set in code via heartbeatInterval()) must be below"
                + " TASKQ_LEASE_PERIOD='30s' (default)");
  }

  @Test
  void workerStaleAfter_mustExceedTheHeartbeat() {
    TaskQConfigException e =
        rejected(
            Map.of(
                "TASKQ_WORKER_STALE_AFTER", "4s",
                "TASKQ_HEARTBEAT_INTERVAL", "5s"));

    assertThat(e.problems().get(0).variables())
        .containsExactly("TASKQ_HEARTBEAT_INTERVAL", "TASKQ_WORKER_STALE_AFTER");
  }

  @Test
  void theSocketTimeout_mustExceedTheStatementTimeout() {
    TaskQConfigException e =
        rejected(
            Map.of(
                "TASKQ_SOCKET_TIMEOUT", "1",
                "TASKQ_DISPATCHER_COMMAND_TIMEOUT", "500ms"));

    assertThat(e.problems()).hasSize(1);
    assertThat(e.problems().get(0).variables())
        .containsExactly("TASKQ_EVENT_WRITER_STATEMENT_TIMEOUT_MS", "TASKQ_SOCKET_TIMEOUT");
    assertThat(e.getMessage()).contains("(D10)");
  }

  @Test
  void theSocketTimeout_mustExceedTheDispatcherCommandTimeout() {
    TaskQConfigException e =
        rejected(TaskQConfig.builder().dispatcherCommandTimeout(Duration.ofSeconds(30)));

    assertThat(e.problems()).hasSize(1);
    assertThat(e.problems().get(0).variables())
        .containsExactly("TASKQ_DISPATCHER_COMMAND_TIMEOUT", "TASKQ_SOCKET_TIMEOUT");
  }

  @Test
  void aRuleBetweenKnobs_isSkippedWhenOneOfThemIsAlreadyBad() {
    TaskQConfigException e =
        rejected(Map.of("TASKQ_LEASE_PERIOD", "0", "TASKQ_HEARTBEAT_INTERVAL", "10s"));

    assertThat(e.problems()).hasSize(1);
    assertThat(e.problems().get(0).variables()).containsExactly("TASKQ_LEASE_PERIOD");
  }

  @Test
  void everyProblem_isReportedTogetherInOneMessage() {
    TaskQConfig.Builder builder =
        TaskQConfig.builder(
                Map.of(
                    "TASKQ_EVENT_WRITER_BATCH_SIZE", "0",
                    "TASKQ_SWEEP_INTERVAL", "soon",
                    "TASKQ_PRUNE_TIME", "25:00",
                    "TASKQ_SWEEP_INTERVALL", "30s"))
            .heartbeatInterval(Duration.ofMinutes(1))
            .httpPort(70_000);

    TaskQConfigException e = rejected(builder);

    assertThat(e.problems())
        .extracting(problem -> problem.variables().get(0))
        .containsExactly(
            "TASKQ_EVENT_WRITER_BATCH_SIZE",
            "TASKQ_SWEEP_INTERVAL",
            "TASKQ_PRUNE_TIME",
            "TASKQ_HTTP_PORT",
            "TASKQ_HEARTBEAT_INTERVAL",
            "TASKQ_HEARTBEAT_INTERVAL",
            "TASKQ_SWEEP_INTERVALL");
    assertThat(e.getMessage()).startsWith("invalid TaskQ configuration (7 problems):\n  - ");
    assertThat(e.getMessage().lines()).hasSize(8);
    e.problems().forEach(problem -> assertThat(e.getMessage()).contains(problem.message()));
  }

  @Test
  void anUnknownVariable_failsWithADidYouMeanHint() {
    TaskQConfigException e = rejected(Map.of("TASKQ_SWEEP_INTERVALL", "30s"));

    assertThat(e.problems().get(0).variables()).containsExactly("TASKQ_SWEEP_INTERVALL");
    assertThat(e.getMessage())
        .contains(
            "TASKQ_SWEEP_INTERVALL (from the environment) is not a TaskQ variable; did you mean"
                + " TASKQ_SWEEP_INTERVAL? (variables starting with TASKQ_TEST_ are ignored)");
  }

  @Test
  void aLowerCaseVariable_isReportedWithItsUpperCaseName() {
    assertThat(rejected(Map.of("taskq_sweep_interval", "30s")).getMessage())
        .contains("taskq_sweep_interval (from the environment) is not a TaskQ variable")
        .contains("did you mean TASKQ_SWEEP_INTERVAL?");
  }

  @Test
  void anUnknownVariableFarFromEveryKnob_pointsToTheDocumentation() {
    assertThat(rejected(Map.of("TASKQ_FROBNICATE", "yes")).getMessage())
        .contains(
            "TASKQ_FROBNICATE (from the environment) is not a TaskQ variable; the known"
                + " variables are listed in docs/configuration.md")
        .doesNotContain("yes");
  }

  @Test
  void builderSetters_rejectNullAtOnceNamingTheSetter() throws Exception {
    List<Method> setters =
        Arrays.stream(TaskQConfig.Builder.class.getDeclaredMethods())
            .filter(m -> Modifier.isPublic(m.getModifiers()) && m.getParameterCount() == 1)
            .filter(m -> !m.getParameterTypes()[0].isPrimitive())
            .toList();
    assertThat(setters).hasSizeGreaterThan(20);

    for (Method setter : setters) {
      TaskQConfig.Builder builder = TaskQConfig.builder();
      InvocationTargetException e =
          catchThrowableOfType(
              InvocationTargetException.class, () -> setter.invoke(builder, new Object[] {null}));
      assertThat(e).as(setter.getName()).isNotNull();
      assertThat(e.getCause())
          .as(setter.getName())
          .isInstanceOf(NullPointerException.class)
          .hasMessage(setter.getName());
    }
  }

  @Test
  void aNullQueueName_isRejectedAtOnceNamingItsPosition() {
    assertThatThrownBy(() -> TaskQConfig.builder().workerQueues(Arrays.asList("a", null)))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("workerQueues[1]");
  }

  @Test
  void queueNamesSetInCode_areChecked() {
    assertThat(rejected(TaskQConfig.builder().workerQueues(List.of())).getMessage())
        .contains("TASKQ_WORKER_QUEUES='' (set in code via workerQueues()) names no queue");
    assertThat(rejected(TaskQConfig.builder().workerQueues("a,b")).getMessage())
        .contains("entry 1 contains a comma");
  }

  @Test
  void aConfigurationException_needsAtLeastOneProblem() {
    assertThatThrownBy(() -> new TaskQConfigException(List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .isNotInstanceOf(TaskQConfigException.class);
  }

  @Test
  void aConfigurationException_isAnIllegalArgumentException() {
    assertThat(rejected(Map.of("TASKQ_HTTP_PORT", "x")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(rejected(Map.of("TASKQ_HTTP_PORT", "x")).problems().get(0).toString())
        .startsWith("TASKQ_HTTP_PORT='x'");
  }

  static TaskQConfigException rejected(Map<String, String> env) {
    return rejected(TaskQConfig.builder(env));
  }

  static TaskQConfigException rejected(TaskQConfig.Builder builder) {
    TaskQConfigException e = catchThrowableOfType(TaskQConfigException.class, builder::build);
    assertThat(e).as("build() must fail").isNotNull();
    return e;
  }
}
