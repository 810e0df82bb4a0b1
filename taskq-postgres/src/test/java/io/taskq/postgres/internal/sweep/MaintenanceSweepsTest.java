package io.taskq.postgres.internal.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.taskq.core.TaskQConfig;
import java.time.LocalTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MaintenanceSweepsTest {
  @Test
  void buildsEverySweepWithTheCadenceAndBatchSizeOfTheGuide() {
    TaskQConfig config =
        TaskQConfig.builder(Map.of())
            .eventWriterBatchSize(40)
            .pruneBatchSize(500)
            .pruneTime(LocalTime.of(2, 30))
            .build();

    List<SweepRegistration> sweeps = MaintenanceSweeps.of(config);

    assertThat(sweeps)
        .extracting(
            SweepRegistration::sweepName, SweepRegistration::cadence, SweepRegistration::batchSize)
        .containsExactly(
            tuple("sweep_leaked_reservation_slots", SweepCadence.DRAINED, 40),
            tuple("sweep_expired_results", SweepCadence.DRAINED, 40),
            tuple("cleanup_stale_workers", SweepCadence.DRAINED, 40),
            tuple("complete_stale_batches", SweepCadence.DRAINED, 40),
            tuple("sweep_expired_events", SweepCadence.ONE_BATCH_PER_TICK, 10_000),
            tuple("sweep_idle_keyed_rows", SweepCadence.ONE_BATCH_PER_TICK, 256),
            tuple("prune", SweepCadence.DAILY, 500),
            tuple("archive_expiry", SweepCadence.DAILY, 500));
    assertThat(sweeps.get(6).schedule()).hasToString("daily at 02:30 UTC");
    assertThat(sweeps.get(7).schedule()).hasToString("daily at 04:00 UTC");
  }

  @Test
  void aRegistrationRefusesADailyCadenceWithoutSchedule_andABatchSizeBelowOne() {
    ExpiredResultSweep sweep = new ExpiredResultSweep(TaskQConfig.defaults().schemaName());
    assertThatThrownBy(() -> new SweepRegistration(sweep, SweepCadence.DAILY, 10, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sweep_expired_results")
        .hasMessageContaining("DAILY");
    assertThatThrownBy(
            () ->
                new SweepRegistration(
                    sweep, SweepCadence.DRAINED, 10, new DailySchedule(LocalTime.NOON)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new SweepRegistration(sweep, SweepCadence.DRAINED, 0, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("batch size must be at least 1, was 0");
  }
}
