package io.taskq.postgres.internal.sweep;

import io.taskq.core.SchemaName;
import io.taskq.core.TaskQConfig;
import io.taskq.core.internal.AdvisoryLockName;
import io.taskq.core.internal.AdvisoryLockName.Purpose;
import java.util.List;

/**
 * The sweeps S4-S9 and S11 of one schema, built from the configuration with the cadence and batch
 * size guide §1 gives each, ready for the sweep loop to run (S1-S3 are specified by the loop's own
 * code):
 *
 * <ul>
 *   <li>S4, S5, S6, S7: {@code TASKQ_EVENT_WRITER_BATCH_SIZE} rows, drained;
 *   <li>S8: 10 000 rows, one batch per tick;
 *   <li>S9: 256 rows per table, one batch per tick;
 *   <li>prune and archive expiry: {@code TASKQ_PRUNE_BATCH_SIZE} rows, daily at their UTC times
 *       under {@code taskq:prune:{schema}} / {@code taskq:archive_expiry:{schema}}.
 * </ul>
 */
public final class MaintenanceSweeps {
  private MaintenanceSweeps() {}

  /** Every sweep of S4-S9 and S11 for {@code config}'s schema, in guide order. */
  public static List<SweepSpec> of(TaskQConfig config) {
    SchemaName schema = config.schemaName();
    int eventWriterBatch = config.eventWriterBatchSize();
    int pruneBatch = config.pruneBatchSize();
    return List.of(
        SweepSpec.drained(new LeakedReservationSlotSweep(schema), eventWriterBatch),
        SweepSpec.drained(new ExpiredResultSweep(schema), eventWriterBatch),
        SweepSpec.drained(
            new StaleWorkerSweep(schema, config.workerStaleAfter()), eventWriterBatch),
        SweepSpec.drained(new StaleBatchSweep(schema), eventWriterBatch),
        SweepSpec.oneBatchPerTick(
            new ExpiredEventSweep(schema, config.eventRetentionPeriod()),
            ExpiredEventSweep.DEFAULT_BATCH_SIZE),
        SweepSpec.oneBatchPerTick(
            new IdleKeyedRowSweep(schema, config.keyedRowReclaimPeriod()),
            IdleKeyedRowSweep.DEFAULT_BATCH_SIZE),
        SweepSpec.daily(
            new PruneSweep(schema, config.pruneAfter()),
            pruneBatch,
            config.pruneTime(),
            AdvisoryLockName.of(Purpose.PRUNE, schema)),
        SweepSpec.daily(
            new ArchiveExpirySweep(schema, config.archiveRetention()),
            pruneBatch,
            config.archiveExpiryTime(),
            AdvisoryLockName.of(Purpose.ARCHIVE_EXPIRY, schema)));
  }
}
