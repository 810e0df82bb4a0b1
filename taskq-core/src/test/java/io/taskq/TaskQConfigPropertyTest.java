package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** SB2: settings given under a framework's own names go through the same catalog. */
@Tag("SB2")
class TaskQConfigPropertyTest {
  private static final String ORIGIN = "class path resource [application.yml] - 3:22";

  @Test
  void aPropertyIsParsedLikeTheVariableAndWinsOverIt() {
    TaskQConfig config =
        TaskQConfig.builder(Map.of("TASKQ_SWEEP_INTERVAL", "30s"))
            .setProperty("TASKQ_CLAIM_BATCH_SIZE", "12", "taskq.claim-batch-size", ORIGIN)
            .build();
    assertThat(config.claimBatchSize()).isEqualTo(12);
    assertThat(config.describe()).contains("TASKQ_CLAIM_BATCH_SIZE=12 (from a property)");
  }

  @Test
  void aBadPropertyIsNamedWithItsOriginAmongTheOtherProblems() {
    assertThatThrownBy(
            () ->
                TaskQConfig.builder(Map.of("TASKQ_LEASE_PERIOD", "nope"))
                    .setProperty("TASKQ_CLAIM_BATCH_SIZE", "0", "taskq.claim-batch-size", ORIGIN)
                    .build())
        .isInstanceOf(TaskQConfigException.class)
        .hasMessageContaining(
            "taskq.claim-batch-size='0' (from " + ORIGIN + ") is out of range; allowed: 1..1000")
        .hasMessageContaining("TASKQ_LEASE_PERIOD='nope' (from the environment)")
        .hasMessageContaining("(2 problems)");
  }

  @Test
  void crossRulesNameThePropertiesTheyWereGivenUnder() {
    assertThatThrownBy(
            () ->
                TaskQConfig.builder()
                    .setProperty(
                        "TASKQ_HEARTBEAT_INTERVAL", "1m", "taskq.heartbeat-interval", ORIGIN)
                    .setProperty("TASKQ_LEASE_PERIOD", "30s", "taskq.lease-period", ORIGIN)
                    .build())
        .isInstanceOf(TaskQConfigException.class)
        .hasMessageContaining("taskq.heartbeat-interval='1m' (from " + ORIGIN + ") must be below")
        .hasMessageContaining("taskq.lease-period='30s'");
  }

  @Test
  void aPropertyAndAVariableThatDisagreeAreAProblemUntilCodeDecides() {
    TaskQConfig.Builder builder =
        TaskQConfig.builder(Map.of("TASKQ_CLAIM_BATCH_SIZE", "7"))
            .setProperty("TASKQ_CLAIM_BATCH_SIZE", "5", "taskq.claim-batch-size", ORIGIN);
    assertThatThrownBy(builder::build)
        .isInstanceOf(TaskQConfigException.class)
        .hasMessageContaining(
            "taskq.claim-batch-size='5' (from "
                + ORIGIN
                + ") and TASKQ_CLAIM_BATCH_SIZE='7' (from the environment) set the same setting to"
                + " different values");
    assertThat(builder.claimBatchSize(64).build().claimBatchSize()).isEqualTo(64);
  }

  @Test
  void secretsGivenAsPropertiesAreNeverShown() {
    assertThatThrownBy(
            () ->
                TaskQConfig.builder(Map.of("TASKQ_DATABASE_PASSWORD", "s3cret-env"))
                    .setProperty(
                        "TASKQ_DATABASE_PASSWORD", "s3cret-prop", "taskq.database-password", ORIGIN)
                    .build())
        .isInstanceOf(TaskQConfigException.class)
        .message()
        .doesNotContain("s3cret-env")
        .doesNotContain("s3cret-prop");
  }

  @Test
  void unknownVariablesOfPropertiesAreRefused() {
    assertThatThrownBy(
            () -> TaskQConfig.builder().setProperty("TASKQ_NOPE", "1", "taskq.nope", ORIGIN))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("TASKQ_NOPE is not a TaskQ setting");
  }

  @Test
  void everySettingIsListedWithItsKebabName() {
    assertThat(TaskQConfig.settings())
        .anySatisfy(
            s -> {
              assertThat(s.envName()).isEqualTo("TASKQ_CLAIM_BATCH_SIZE");
              assertThat(s.kebabName()).isEqualTo("claim-batch-size");
              assertThat(s.defaultText()).isEqualTo("256");
            })
        .anySatisfy(
            s -> assertThat(s.isList()).isEqualTo(s.envName().equals("TASKQ_WORKER_QUEUES")));
    assertThat(TaskQConfig.settings())
        .filteredOn(TaskQSetting::secret)
        .extracting(TaskQSetting::envName)
        .containsExactlyInAnyOrder(
            "TASKQ_DATABASE_PASSWORD", "TASKQ_DASHBOARD_TOKEN", "TASKQ_DASHBOARD_PASSWORD");
  }
}
