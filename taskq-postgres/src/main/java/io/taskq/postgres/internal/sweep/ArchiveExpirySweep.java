package io.taskq.postgres.internal.sweep;

import io.taskq.core.SchemaName;
import io.taskq.core.internal.AdvisoryLockName;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.LocalTime;

/**
 * S11 archive expiry: hard-deletes {@code jobs_archive} rows archived more than {@code
 * archiveRetention} ago.
 *
 * <p>Each batch first takes the transaction-scoped advisory lock {@code
 * taskq:archive_expiry:{schema}} ({@code pg_try_advisory_xact_lock}, M1): when another process
 * holds it, the batch does nothing and returns 0. One {@code DELETE} of at most {@code
 * TASKQ_PRUNE_BATCH_SIZE} rows per batch; no {@code job_events} rows.
 */
public final class ArchiveExpirySweep implements SweepBatch {
  /** The sweep's name in metrics and logs. */
  public static final String NAME = "archive_expiry";

  /** Daily, drained until a batch deletes nothing. */
  public static final Cadence CADENCE = Cadence.DAILY;

  /** {@code TASKQ_PRUNE_BATCH_SIZE}'s default. */
  public static final int DEFAULT_BATCH_SIZE = PruneSweep.DEFAULT_BATCH_SIZE;

  /** The default daily run time, UTC: an hour after prune. */
  public static final LocalTime DEFAULT_TIME = LocalTime.of(4, 0);

  private static final String SQL = "io/taskq/postgres/sql/sweep/archive_expiry.sql";

  private final LockedAgeStatement batch;

  /**
   * An expiry of {@code schema}'s {@code jobs_archive}.
   *
   * @param archiveRetention how long an archived job is kept; above zero, at most 36 500 days
   * @throws IllegalArgumentException when {@code archiveRetention} is out of range
   */
  public ArchiveExpirySweep(SchemaName schema, Duration archiveRetention) {
    this.batch =
        new LockedAgeStatement(
            schema,
            SQL,
            "delete_expired_archive",
            AdvisoryLockName.Purpose.ARCHIVE_EXPIRY,
            SweepPeriod.positive("TASKQ_ARCHIVE_RETENTION", archiveRetention));
  }

  @Override
  public String sweepName() {
    return NAME;
  }

  /** Returns the archive rows deleted; 0 when another process holds the archive-expiry lock. */
  @Override
  public int run(Connection tx, int batchSize) throws SQLException {
    return batch.run(NAME, tx, batchSize);
  }
}
