package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskq.core.internal.config.Knob;
import io.taskq.core.internal.config.KnobCatalog;
import java.time.Duration;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

@Tag("T1")
class TaskQConfigTest {

  static Stream<KnobExamples.Example> examples() {
    return KnobExamples.ALL.stream();
  }

  static Stream<Object[]> guideDefaults() {
    return KnobExamples.GUIDE_DEFAULTS.stream();
  }

  @ParameterizedTest(name = "{0} = {1}")
  @MethodSource("guideDefaults")
  void defaults_equalTheGuide(String accessor, Object expected) {
    assertThat(KnobExamples.read(TaskQConfig.defaults(), accessor)).isEqualTo(expected);
    assertThat(KnobExamples.read(TaskQConfig.fromEnv(Map.of()), accessor)).isEqualTo(expected);
  }

  @Test
  void defaults_coverEveryKnobOfTheCatalog() {
    List<String> accessors =
        KnobExamples.GUIDE_DEFAULTS.stream().map(row -> (String) row[0]).toList();
    assertThat(accessors)
        .containsExactlyInAnyOrderElementsOf(
            KnobCatalog.all().stream().map(Knob::accessor).toList());
  }

  @Test
  void examples_coverEveryKnobOfTheCatalog() {
    assertThat(KnobExamples.ALL.stream().map(KnobExamples.Example::env))
        .containsExactlyInAnyOrderElementsOf(
            KnobCatalog.all().stream().map(Knob::envName).toList());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("examples")
  void everyKnob_isReadFromItsEnvironmentVariable(KnobExamples.Example example) {
    Knob<?> knob = KnobCatalog.byEnvName(example.env());
    assertThat(knob).isNotNull();
    assertThat(example.expected()).isNotEqualTo(knob.defaultValue());

    TaskQConfig config = TaskQConfig.fromEnv(Map.of(example.env(), example.good()));

    assertThat(KnobExamples.read(config, knob.accessor())).isEqualTo(example.expected());
    assertThat(config.describe()).anyMatch(line -> line.endsWith("(from the environment)"));
  }

  @Test
  void everyKnob_isReadTogetherFromOneEnvironment() {
    Map<String, String> env = new HashMap<>();
    KnobExamples.ALL.forEach(example -> env.put(example.env(), example.good()));
    env.put("TASKQ_DATABASE_PASSWORD", "pw"); // the example's blanks are kept, fine either way

    TaskQConfig config = TaskQConfig.fromEnv(env);

    for (KnobExamples.Example example : KnobExamples.ALL) {
      Knob<?> knob = KnobCatalog.byEnvName(example.env());
      Object expected =
          example.env().equals("TASKQ_DATABASE_PASSWORD") ? Optional.of("pw") : example.expected();
      assertThat(KnobExamples.read(config, knob.accessor())).as(example.env()).isEqualTo(expected);
    }
    assertThat(config.describe()).allMatch(line -> line.endsWith("(from the environment)"));
  }

  @Test
  void environmentVariablesOfOtherPrograms_areIgnored() {
    TaskQConfig config =
        TaskQConfig.fromEnv(
            Map.of("PATH", "/usr/bin", "TASKQ_TEST_JDBC_URL", "jdbc:x", "XTASKQ_FOO", "1"));

    assertThat(config).isEqualTo(TaskQConfig.defaults());
  }

  @Test
  void emptyOptionalVariables_meanUnset() {
    TaskQConfig config =
        TaskQConfig.fromEnv(
            Map.of("TASKQ_DATABASE_URL", "", "TASKQ_REDIS_URL", "", "TASKQ_DATABASE_PASSWORD", ""));

    assertThat(config.databaseUrl()).isEmpty();
    assertThat(config.redisUrl()).isEmpty();
    assertThat(config.databasePassword()).isEmpty();
  }

  @Test
  void fromEnvWithoutArguments_readsTheProcessEnvironment() {
    assertThat(outcome(TaskQConfig::fromEnv))
        .isEqualTo(outcome(() -> TaskQConfig.fromEnv(System.getenv())));
  }

  @Test
  void builderSetters_overrideTheEnvironment() {
    Map<String, String> env =
        Map.of("TASKQ_EVENT_WRITER_BATCH_SIZE", "200", "TASKQ_SWEEP_DRAIN_BATCHES", "12");

    TaskQConfig config = TaskQConfig.builder(env).eventWriterBatchSize(300).build();

    assertThat(config.eventWriterBatchSize()).isEqualTo(300);
    assertThat(config.sweepDrainBatches()).isEqualTo(12);
    assertThat(config.describe())
        .contains(
            "TASKQ_EVENT_WRITER_BATCH_SIZE=300 (set in code via eventWriterBatchSize())",
            "TASKQ_SWEEP_DRAIN_BATCHES=12 (from the environment)",
            "TASKQ_CRON_TICK_LIMIT=100 (default)");
  }

  @Test
  void builderSetters_replaceABadEnvironmentValueWithoutParsingIt() {
    TaskQConfig config =
        TaskQConfig.builder(Map.of("TASKQ_SWEEP_INTERVAL", "soon"))
            .sweepInterval(Duration.ofSeconds(5))
            .build();

    assertThat(config.sweepInterval()).isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void everySetter_setsItsKnob() {
    TaskQConfig config =
        TaskQConfig.builder()
            .eventWriterBatchSize(50)
            .eventWriterStatementTimeout(Duration.ofMillis(900))
            .reclaimEventVisibilityDelay(Duration.ofSeconds(1))
            .eventWriterReducedBatchDivisor(2)
            .sweepBreakerFailureThreshold(4)
            .sweepBreakerWindow(Duration.ofMinutes(5))
            .sweepDrainBatches(3)
            .sweepInterval(Duration.ofSeconds(15))
            .cronTickLimit(20)
            .cronAutoDisableThreshold(0)
            .eventRetentionPeriod(Duration.ZERO)
            .keyedRowReclaimPeriod(Duration.ofMinutes(30))
            .pruneBatchSize(100)
            .schemaName(SchemaName.of("jobs"))
            .maxRetryBackoff(Duration.ofMinutes(10))
            .dispatcherCommandTimeout(Duration.ofSeconds(3))
            .maxKeyedReservations(7)
            .maxKeyedRateLimits(9)
            .pruneTime(LocalTime.of(1, 0))
            .archiveExpiryTime(LocalTime.of(2, 0))
            .pruneAfter(Duration.ofDays(1))
            .archiveRetention(Duration.ofDays(2))
            .databaseUrl("jdbc:postgresql://db/app")
            .databaseUser("app")
            .databasePassword("pw")
            .databaseDirectUrl("jdbc:postgresql://direct/app")
            .databasePoolSize(3)
            .databaseKeepaliveTime(Duration.ofMinutes(1))
            .socketTimeout(Duration.ofSeconds(20))
            .connectTimeout(Duration.ofSeconds(4))
            .redisUrl("redis://cache")
            .redisCommandTimeout(Duration.ofSeconds(1))
            .workerConcurrency(2)
            .workerQueues("a", "b")
            .claimBatchSize(4)
            .leasePeriod(Duration.ofSeconds(20))
            .heartbeatInterval(Duration.ofSeconds(2))
            .workerStaleAfter(Duration.ofSeconds(40))
            .pollInterval(Duration.ofMillis(500))
            .shutdownGrace(Duration.ZERO)
            .resultTtl(Duration.ofHours(2))
            .maxPayloadBytes(4096)
            .migrate("skip")
            .httpPort(9090)
            .httpBind("::1")
            .httpDashboard(true)
            .dashboardPort(8081)
            .dashboardBind("127.0.0.2")
            .dashboardPath("/ops")
            .dashboardReadOnly(true)
            .dashboardToken("0123456789abcdef")
            .dashboardUser("ops")
            .dashboardPassword("long enough")
            .dashboardOrigin("https://ops.example.com")
            .build();

    assertThat(config.describe()).allMatch(line -> line.contains("(set in code via "));
    assertThat(config.eventWriterStatementTimeout()).isEqualTo(Duration.ofMillis(900));
    assertThat(config.schemaName()).isEqualTo(SchemaName.of("jobs"));
    assertThat(config.workerQueues()).containsExactly("a", "b");
    assertThat(config.httpBind()).isEqualTo("::1");
    assertThat(config.migrate()).isEqualTo("skip");
    assertThat(config.databasePassword()).contains("pw");
  }

  @Test
  void schemaNameAsText_isCheckedAtBuild() {
    assertThat(TaskQConfig.builder().schemaName("staging").build().schemaName().value())
        .isEqualTo("staging");
    assertThatThrownBy(() -> TaskQConfig.builder().schemaName("pg_catalog").build())
        .isInstanceOf(TaskQConfigException.class)
        .hasMessageContaining("TASKQ_SCHEMA_NAME='pg_catalog' (set in code via schemaName())");
  }

  @Test
  void anEmptyStringGivenToAnOptionalSetter_unsetsIt() {
    TaskQConfig config =
        TaskQConfig.builder(Map.of("TASKQ_REDIS_URL", "redis://cache")).redisUrl("").build();

    assertThat(config.redisUrl()).isEmpty();
  }

  @Test
  void newBuilder_roundTripsToAnEqualConfigurationAndKeepsSources() {
    TaskQConfig original =
        TaskQConfig.builder(Map.of("TASKQ_SWEEP_INTERVAL", "45s", "TASKQ_WORKER_QUEUES", "a,b"))
            .claimBatchSize(32)
            .build();

    TaskQConfig copy = original.newBuilder().build();

    assertThat(copy).isEqualTo(original).hasSameHashCodeAs(original);
    assertThat(copy.toString()).isEqualTo(original.toString());
    assertThat(copy.describe()).isEqualTo(original.describe());
  }

  @Test
  void newBuilder_changesOnlyTheCopy() {
    TaskQConfig original = TaskQConfig.defaults();

    TaskQConfig changed = original.newBuilder().workerConcurrency(64).build();

    assertThat(original.workerConcurrency()).isEqualTo(8);
    assertThat(changed.workerConcurrency()).isEqualTo(64);
    assertThat(changed).isNotEqualTo(original);
  }

  @Test
  void aBuilder_canBuildTwiceAndKeepsItsSettings() {
    TaskQConfig.Builder builder = TaskQConfig.builder().cronTickLimit(7);

    TaskQConfig first = builder.build();
    TaskQConfig second = builder.build();

    assertThat(first).isEqualTo(second);
    assertThat(builder.cronTickLimit(8).build().cronTickLimit()).isEqualTo(8);
    assertThat(first.cronTickLimit()).isEqualTo(7);
  }

  @Test
  void theQueueList_isACopyAndCannotBeChanged() {
    List<String> queues = new ArrayList<>(List.of("a"));
    TaskQConfig config = TaskQConfig.builder().workerQueues(queues).build();

    queues.add("b");

    assertThat(config.workerQueues()).containsExactly("a");
    assertThatThrownBy(() -> config.workerQueues().add("c"))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void equality_followsTheValuesNotTheirSources() {
    TaskQConfig fromEnv = TaskQConfig.fromEnv(Map.of("TASKQ_HTTP_PORT", "8080"));
    TaskQConfig fromCode = TaskQConfig.builder().httpPort(8080).build();

    assertThat(fromEnv).isEqualTo(fromCode).hasSameHashCodeAs(fromCode);
    assertThat(fromEnv).isNotEqualTo(TaskQConfig.defaults()).isNotEqualTo("TaskQConfig");
  }

  @Test
  void toString_listsEveryKnob() {
    String text = TaskQConfig.defaults().toString();

    assertThat(text).startsWith("TaskQConfig{eventWriterBatchSize=100, ");
    for (Knob<?> knob : KnobCatalog.all()) {
      assertThat(text).contains(knob.accessor() + "=" + knob.defaultText());
    }
    assertThat(text).contains("databaseUrl=unset", "workerQueues=default", "sweepInterval=30s");
  }

  private static String outcome(java.util.function.Supplier<TaskQConfig> config) {
    try {
      return config.get().toString();
    } catch (TaskQConfigException e) {
      return e.getMessage();
    }
  }
}
