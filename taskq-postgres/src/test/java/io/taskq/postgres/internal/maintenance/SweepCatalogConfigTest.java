package io.taskq.postgres.internal.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.taskq.SchemaName;
import io.taskq.TaskQConfig;
import io.taskq.postgres.internal.sweep.Cadence;
import io.taskq.postgres.internal.sweep.SweepSpec;
import io.taskq.spi.MaintenanceListener;
import java.time.LocalTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The catalog's S4-S11 rows take their sizes, times and locks from the configuration. */
class SweepCatalogConfigTest {
  private static List<SweepSpec> configured(TaskQConfig config) {
    return SweepCatalog.specs(
        config.schemaName(),
        MaintenanceSettings.from(config),
        MaintenanceListener.NONE,
        row -> !row.breakerWrapped());
  }

  @Test
  void specifiesEverySweepWithTheCadenceAndBatchSizeOfTheGuide() {
    TaskQConfig config =
        TaskQConfig.builder(Map.of())
            .eventWriterBatchSize(40)
            .pruneBatchSize(500)
            .pruneTime(LocalTime.of(2, 30))
            .build();

    List<SweepSpec> sweeps = configured(config);

    assertThat(sweeps)
        .extracting(s -> s.sweep().sweepName(), SweepSpec::cadence, SweepSpec::batchSize)
        .containsExactly(
            tuple("sweep_leaked_reservation_slots", Cadence.DRAINED, 40),
            tuple("sweep_expired_results", Cadence.DRAINED, 40),
            tuple("cleanup_stale_workers", Cadence.DRAINED, 40),
            tuple("complete_stale_batches", Cadence.DRAINED, 40),
            tuple("sweep_expired_events", Cadence.ONE_BATCH_PER_TICK, 10_000),
            tuple("sweep_idle_keyed_rows", Cadence.ONE_BATCH_PER_TICK, 256),
            tuple("prune", Cadence.DAILY, 500),
            tuple("archive_expiry", Cadence.DAILY, 500));
  }

  @Test
  @Tag("M1")
  void dailySweepsRunAtTheirUtcTimeUnderTheirOwnSchemaQualifiedLock() {
    TaskQConfig config = TaskQConfig.builder(Map.of()).schemaName(SchemaName.of("staging")).build();

    List<SweepSpec> sweeps = configured(config);

    assertThat(sweeps.get(6).dailyAtUtc()).isEqualTo(LocalTime.of(3, 0));
    assertThat(sweeps.get(6).ownLock()).isNotNull();
    assertThat(sweeps.get(6).ownLock().name()).isEqualTo("taskq:prune:staging");
    assertThat(sweeps.get(7).dailyAtUtc()).isEqualTo(LocalTime.of(4, 0));
    assertThat(sweeps.get(7).ownLock()).isNotNull();
    assertThat(sweeps.get(7).ownLock().name()).isEqualTo("taskq:archive_expiry:staging");
  }
}
