package io.taskq.postgres.internal.sweep;

import io.taskq.core.SchemaName;
import io.taskq.core.TaskQConfig;
import java.util.List;

/**
 * The sweeps S4-S9 and S11 of one schema, built from the configuration with the cadence and batch
 * size guide §1 gives each, ready for the sweep loop to register (S1-S3 are registered by the
 * loop's own package).
 *
 * <ul>
 *   <li>S4, S5, S6, S7: {@code TASKQ_EVENT_WRITER_BATCH_SIZE} rows, drained;
 *   <li>S8: 10 000 rows, one batch per tick;
 *   <li>S9: 256 rows per table, one batch per tick;
 *   <li>prune and archive expiry: {@code TASKQ_PRUNE_BATCH_SIZE} rows, daily at their UTC times.
 * </ul>
 */
public final class MaintenanceSweeps {
  private MaintenanceSweeps() {}

  /** Every sweep of this package for {@code config}'s schema, in guide order. */
  public static List<SweepRegistration> of(TaskQConfig config) {
    SchemaName schema = config.schemaName();
    int eventWriterBatch = config.eventWriterBatchSize();
    int pruneBatch = config.pruneBatchSize();
    return List.of(
        drained(new LeakedReservationSlotSweep(schema), eventWriterBatch),
        drained(new ExpiredResultSweep(schema), eventWriterBatch),
        drained(new StaleWorkerSweep(schema, config.workerStaleAfter()), eventWriterBatch),
        drained(new StaleBatchSweep(schema), eventWriterBatch),
        new SweepRegistration(
            new ExpiredEventSweep(schema, config.eventRetentionPeriod()),
            ExpiredEventSweep.CADENCE,
            ExpiredEventSweep.DEFAULT_BATCH_SIZE,
            null),
        new SweepRegistration(
            new IdleKeyedRowSweep(schema, config.keyedRowReclaimPeriod()),
            IdleKeyedRowSweep.CADENCE,
            IdleKeyedRowSweep.DEFAULT_BATCH_SIZE,
            null),
        new SweepRegistration(
            new PruneSweep(schema, config.pruneAfter()),
            PruneSweep.CADENCE,
            pruneBatch,
            new DailySchedule(config.pruneTime())),
        new SweepRegistration(
            new ArchiveExpirySweep(schema, config.archiveRetention()),
            ArchiveExpirySweep.CADENCE,
            pruneBatch,
            new DailySchedule(config.archiveExpiryTime())));
  }

  private static SweepRegistration drained(SweepBatch sweep, int batchSize) {
    return new SweepRegistration(sweep, SweepCadence.DRAINED, batchSize, null);
  }
}
