package io.taskq.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.TaskQConfig;
import io.taskq.TaskQConfigException;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** SB2: taskq.* properties and TASKQ_* variables, through the knob catalog. */
@TaskQTest
@Tag("SB2")
class TaskQPropertiesTest {

  @Test
  void kebabCamelAndBootsEnvironmentFormsAllBind(TestServices services) {
    Contexts.on(services)
        .withPropertyValues("taskq.claim-batch-size=17", "taskq.workerConcurrency=3")
        .withInitializer(c -> Contexts.environment(c, Map.of("TASKQ_POLLINTERVAL", "250ms")))
        .run(
            context -> {
              TaskQConfig config = context.getBean(TaskQConfig.class);
              assertThat(config.claimBatchSize()).isEqualTo(17);
              assertThat(config.workerConcurrency()).isEqualTo(3);
              assertThat(config.pollInterval()).isEqualTo(Duration.ofMillis(250));
              assertThat(config.schemaName().value()).isEqualTo(services.schema());
            });
  }

  @ParameterizedTest
  @ValueSource(strings = {"10s", "PT10S", "10"})
  void durationsBindAsTextUnitAndIsoAndBareNumbersInTheCatalogsUnit(
      String text, TestServices services) {
    Contexts.on(services)
        .withPropertyValues("taskq.sweep-interval=" + text)
        .run(
            context ->
                assertThat(context.getBean(TaskQConfig.class).sweepInterval())
                    .isEqualTo(Duration.ofSeconds(10)));
  }

  @Test
  void listsBindCommaSeparatedOrIndexed(TestServices services) {
    Contexts.on(services)
        .withPropertyValues("taskq.worker-queues[0]=mail", "taskq.worker-queues[1]=billing")
        .run(
            context ->
                assertThat(context.getBean(TaskQConfig.class).workerQueues())
                    .containsExactly("mail", "billing"));
    Contexts.on(services)
        .withPropertyValues("taskq.worker-queues=mail, billing")
        .run(
            context ->
                assertThat(context.getBean(TaskQConfig.class).workerQueues())
                    .containsExactly("mail", "billing"));
  }

  @Test
  void theTaskqVariablesStillWork(TestServices services) {
    Contexts.on(services)
        .withInitializer(
            c ->
                Contexts.environment(
                    c, Map.of("TASKQ_CLAIM_BATCH_SIZE", "9", "TASKQ_SHUTDOWN_GRACE", "4s")))
        .run(
            context -> {
              TaskQConfig config = context.getBean(TaskQConfig.class);
              assertThat(config.claimBatchSize()).isEqualTo(9);
              assertThat(config.shutdownGrace()).isEqualTo(Duration.ofSeconds(4));
            });
  }

  @Test
  @Tag("SB6")
  void withoutAGraceGivenItStaysFiveSecondsBelowSpringsPhaseTimeout(TestServices services) {
    Contexts.on(services)
        .run(
            context ->
                assertThat(context.getBean(TaskQConfig.class).shutdownGrace())
                    .isEqualTo(Duration.ofSeconds(25)));
    Contexts.on(services)
        .withPropertyValues("spring.lifecycle.timeout-per-shutdown-phase=12s")
        .run(
            context ->
                assertThat(context.getBean(TaskQConfig.class).shutdownGrace())
                    .isEqualTo(Duration.ofSeconds(7)));
    Contexts.on(services)
        .withPropertyValues(
            "spring.lifecycle.timeout-per-shutdown-phase=2m", "taskq.shutdown-grace=40s")
        .run(
            context ->
                assertThat(context.getBean(TaskQConfig.class).shutdownGrace())
                    .isEqualTo(Duration.ofSeconds(40)));
  }

  @Test
  void aPropertyEqualToTheVariableIsNoConflict(TestServices services) {
    Contexts.on(services)
        .withPropertyValues("taskq.claim-batch-size=9")
        .withInitializer(c -> Contexts.environment(c, Map.of("TASKQ_CLAIM_BATCH_SIZE", "9")))
        .run(
            context ->
                assertThat(context.getBean(TaskQConfig.class).claimBatchSize()).isEqualTo(9));
  }

  @Test
  void aPropertyAndAVariableDisagreeingFailNamingBoth(TestServices services) {
    Contexts.on(services)
        .withPropertyValues("taskq.claim-batch-size=5")
        .withInitializer(c -> Contexts.environment(c, Map.of("TASKQ_CLAIM_BATCH_SIZE", "7")))
        .run(
            context -> {
              TaskQConfigException e = configFailure(context.getStartupFailure());
              assertThat(e.getMessage())
                  .contains("taskq.claim-batch-size='5'")
                  .contains("TASKQ_CLAIM_BATCH_SIZE='7' (from the environment)");
            });
  }

  @Test
  void customizersHaveTheLastWord(TestServices services) {
    Contexts.on(services)
        .withPropertyValues("taskq.claim-batch-size=5")
        .withBean(TaskQConfigCustomizer.class, () -> b -> b.claimBatchSize(64))
        .run(
            context ->
                assertThat(context.getBean(TaskQConfig.class).claimBatchSize()).isEqualTo(64));
  }

  @Test
  void everyBadPropertyIsNamedInOneMessage(TestServices services) {
    Contexts.on(services)
        .withPropertyValues(
            "taskq.claim-batch-size=0",
            "taskq.lease-period=soon",
            "taskq.heartbeat-interval=1m",
            "taskq.database-password=hunter2x")
        .withInitializer(c -> Contexts.environment(c, Map.of("TASKQ_CLAIM_BACH_SIZE", "3")))
        .run(
            context -> {
              TaskQConfigException e = configFailure(context.getStartupFailure());
              List<String> named =
                  e.problems().stream().flatMap(p -> p.variables().stream()).toList();
              assertThat(named)
                  .contains(
                      "taskq.claim-batch-size", "taskq.lease-period", "TASKQ_CLAIM_BACH_SIZE");
              assertThat(e.getMessage())
                  .contains("taskq.claim-batch-size='0' (from ")
                  .contains("allowed: 1..1000")
                  .contains("taskq.lease-period='soon'")
                  .contains("did you mean TASKQ_CLAIM_BATCH_SIZE?")
                  .doesNotContain("hunter2x");
            });
  }

  @Test
  void theBootFormsOfStarterPropertiesAreNotUnknownVariables(TestServices services) {
    Contexts.on(services)
        .withInitializer(
            c ->
                Contexts.environment(
                    c, Map.of("TASKQ_ENABLED", "true", "TASKQ_METRICS_SAMPLEPERIOD", "5s")))
        .run(context -> assertThat(context).hasNotFailed().hasSingleBean(TaskQConfig.class));
  }

  private static TaskQConfigException configFailure(Throwable failure) {
    Throwable t = failure;
    while (t != null && !(t instanceof TaskQConfigException)) {
      t = t.getCause();
    }
    assertThat(t).as("a TaskQConfigException in %s", failure).isNotNull();
    return (TaskQConfigException) t;
  }
}
