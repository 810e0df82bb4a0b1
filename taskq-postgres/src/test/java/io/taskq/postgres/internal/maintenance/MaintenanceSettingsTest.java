package io.taskq.postgres.internal.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskq.TaskQConfig;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("T1")
class MaintenanceSettingsTest {
  @Test
  void theDefaults_areTheGuides() {
    MaintenanceSettings s = MaintenanceSettings.defaults();

    assertThat(s.eventWriterBatchSize()).isEqualTo(100);
    assertThat(s.eventWriterStatementTimeout()).isEqualTo(Duration.ofMillis(1750));
    assertThat(s.reducedBatchDivisor()).isEqualTo(4);
    assertThat(s.breakerFailureThreshold()).isEqualTo(3);
    assertThat(s.breakerWindow()).isEqualTo(Duration.ofMinutes(10));
    assertThat(s.sweepDrainBatches()).isEqualTo(8);
    assertThat(s.sweepInterval()).isEqualTo(Duration.ofSeconds(30));
    assertThat(s.scheduledTick()).isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void theSettings_followTheConfiguration() {
    TaskQConfig config =
        TaskQConfig.fromEnv(
            Map.of(
                "TASKQ_EVENT_WRITER_BATCH_SIZE", "50",
                "TASKQ_SWEEP_DRAIN_BATCHES", "20",
                "TASKQ_SWEEP_INTERVAL", "10s",
                "TASKQ_SWEEP_BREAKER_FAILURE_THRESHOLD", "5"));

    MaintenanceSettings s = MaintenanceSettings.from(config);

    assertThat(s.eventWriterBatchSize()).isEqualTo(50);
    assertThat(s.sweepDrainBatches()).isEqualTo(20);
    assertThat(s.sweepInterval()).isEqualTo(Duration.ofSeconds(10));
    assertThat(s.breakerFailureThreshold()).isEqualTo(5);
    assertThat(s.eventWriterStatementTimeout()).isEqualTo(config.eventWriterStatementTimeout());
    assertThat(s.workerStaleAfter()).isEqualTo(config.workerStaleAfter());
    assertThat(s.maxRetryBackoff()).isEqualTo(config.maxRetryBackoff());
  }

  @Test
  void badValues_areRefused_namingTheSettingTheValueAndTheRange() {
    assertThatThrownBy(() -> MaintenanceSettings.builder().eventWriterBatchSize(10_001))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("eventWriterBatchSize must be between 1 and 10000, was 10001");
    assertThatThrownBy(() -> MaintenanceSettings.builder().sweepInterval(Duration.ZERO))
        .hasMessage("sweepInterval must be positive, was PT0S");
    assertThatThrownBy(() -> MaintenanceSettings.builder().retryAttempts(0))
        .hasMessageContaining("retryAttempts");
  }

  @Test
  void toBuilder_keepsEveryValue() {
    MaintenanceSettings s = MaintenanceSettings.builder().sweepDrainBatches(3).build();

    assertThat(s.toBuilder().build()).isEqualTo(s);
  }

  @Test
  @Tag("Q2")
  void connectionAndLockErrors_areTransient_butAStatementThatIsWrong_isNot() {
    assertThat(BatchRetry.isTransient(new SQLTransientConnectionException("x", "08006"))).isTrue();
    assertThat(BatchRetry.isTransient(new SQLException("deadlock", "40P01"))).isTrue();
    assertThat(BatchRetry.isTransient(new SQLException("terminated", "57P01"))).isTrue();
    assertThat(BatchRetry.isTransient(new SQLException("io", (String) null))).isTrue();
    assertThat(BatchRetry.isTransient(new SQLException("syntax", "42601"))).isFalse();
    assertThat(BatchRetry.isTransient(new SQLException("division", "22012"))).isFalse();
  }

  @Test
  void theBackoff_doubles_andJitterTakesOffAtMostAQuarter() {
    BatchRetry noJitter =
        new BatchRetry(3, Duration.ofMillis(100), MaintenanceFaults.disarmed(), d -> {}, () -> 0);
    BatchRetry fullJitter =
        new BatchRetry(3, Duration.ofMillis(100), MaintenanceFaults.disarmed(), d -> {}, () -> 1);

    assertThat(noJitter.backoff(1)).isEqualTo(Duration.ofMillis(100));
    assertThat(noJitter.backoff(2)).isEqualTo(Duration.ofMillis(200));
    assertThat(noJitter.backoff(3)).isEqualTo(Duration.ofMillis(400));
    assertThat(fullJitter.backoff(2)).isEqualTo(Duration.ofMillis(150));
  }

  @Test
  @Tag("Q1")
  void aPermanentError_isNotRetried_andEndsTyped() {
    BatchRetry retry =
        new BatchRetry(3, Duration.ofMillis(1), MaintenanceFaults.disarmed(), d -> {}, () -> 0);
    int[] attempts = new int[1];

    assertThatThrownBy(
            () ->
                retry.call(
                    "s",
                    () -> {
                      attempts[0]++;
                      throw new SQLException("bad", "42601");
                    }))
        .isInstanceOfSatisfying(
            SweepFailedException.class,
            e -> {
              assertThat(e.isExhausted()).isFalse();
              assertThat(e.attempts()).isEqualTo(1);
            });
    assertThat(attempts[0]).isEqualTo(1);
  }

  @Test
  void theFaultSeam_isBornDisarmed_countsAndNeverGoesNegative() {
    MaintenanceFaults faults = MaintenanceFaults.disarmed();
    assertThat(faults.take()).isFalse();

    faults.arm(2);

    assertThat(faults.take()).isTrue();
    assertThat(faults.take()).isTrue();
    assertThat(faults.take()).isFalse();
    assertThat(faults.remaining()).isZero();
    assertThatThrownBy(() -> faults.arm(-1)).hasMessageContaining("-1");
  }
}
