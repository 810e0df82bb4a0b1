package io.taskq.postgres.internal.maintenance;

import io.taskq.TaskQConfig;
import io.taskq.core.internal.config.KnobCatalog;
import java.time.Duration;
import java.time.LocalTime;
import java.util.Objects;

/**
 * The knobs that only the {@link SweepCatalog}'s S4-S11 rows read (S1-S3 read the event-writer
 * knobs of {@link MaintenanceSettings}); the defaults are the knob catalog's.
 *
 * @param pruneBatchSize {@code TASKQ_PRUNE_BATCH_SIZE}: rows per S11 batch
 * @param eventRetentionPeriod {@code TASKQ_EVENT_RETENTION_PERIOD}: S8's age; zero turns it off
 * @param keyedRowReclaimPeriod {@code TASKQ_KEYED_ROW_RECLAIM_PERIOD}: S9's age; zero turns it off
 * @param pruneAfter {@code TASKQ_PRUNE_AFTER}: S11 prune's age
 * @param archiveRetention {@code TASKQ_ARCHIVE_RETENTION}: S11 archive expiry's age
 * @param pruneTime {@code TASKQ_PRUNE_TIME}: S11 prune's daily UTC time
 * @param archiveExpiryTime {@code TASKQ_ARCHIVE_EXPIRY_TIME}: S11 archive expiry's daily UTC time
 */
public record SweepKnobs(
    int pruneBatchSize,
    Duration eventRetentionPeriod,
    Duration keyedRowReclaimPeriod,
    Duration pruneAfter,
    Duration archiveRetention,
    LocalTime pruneTime,
    LocalTime archiveExpiryTime) {

  /** Checks for nulls; the ranges are checked where each value is used (the sweep's period). */
  public SweepKnobs {
    if (pruneBatchSize < 1) {
      throw new IllegalArgumentException(
          "pruneBatchSize must be at least 1, was " + pruneBatchSize);
    }
    Objects.requireNonNull(eventRetentionPeriod, "eventRetentionPeriod");
    Objects.requireNonNull(keyedRowReclaimPeriod, "keyedRowReclaimPeriod");
    Objects.requireNonNull(pruneAfter, "pruneAfter");
    Objects.requireNonNull(archiveRetention, "archiveRetention");
    Objects.requireNonNull(pruneTime, "pruneTime");
    Objects.requireNonNull(archiveExpiryTime, "archiveExpiryTime");
  }

  /** The knob catalog's defaults. */
  public static SweepKnobs defaults() {
    return new SweepKnobs(
        KnobCatalog.PRUNE_BATCH_SIZE.defaultValue(),
        KnobCatalog.EVENT_RETENTION_PERIOD.defaultValue(),
        KnobCatalog.KEYED_ROW_RECLAIM_PERIOD.defaultValue(),
        KnobCatalog.PRUNE_AFTER.defaultValue(),
        KnobCatalog.ARCHIVE_RETENTION.defaultValue(),
        KnobCatalog.PRUNE_TIME.defaultValue(),
        KnobCatalog.ARCHIVE_EXPIRY_TIME.defaultValue());
  }

  /** The values of {@code config}. */
  public static SweepKnobs from(TaskQConfig config) {
    return new SweepKnobs(
        config.pruneBatchSize(),
        config.eventRetentionPeriod(),
        config.keyedRowReclaimPeriod(),
        config.pruneAfter(),
        config.archiveRetention(),
        config.pruneTime(),
        config.archiveExpiryTime());
  }
}
