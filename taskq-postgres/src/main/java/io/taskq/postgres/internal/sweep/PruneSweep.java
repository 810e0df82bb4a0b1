package io.taskq.postgres.internal.sweep;

import io.taskq.core.SchemaName;
import io.taskq.core.internal.AdvisoryLockName;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.LocalTime;

/**
 * S11 prune: moves terminal jobs that finished more than {@code pruneAfter} ago from {@code jobs}
 * to {@code jobs_archive}, every column intact, keeping the hot table small.
 *
 * <p>Each batch first takes the transaction-scoped advisory lock {@code taskq:prune:{schema}}
 * ({@code pg_try_advisory_xact_lock}, M1): when another process holds it, the batch does nothing
 * and returns 0, so two processes never prune one schema at once, and two schemas never wait on
 * each other. The move is one statement ({@code DELETE ... RETURNING} feeding the {@code INSERT})
 * of at most {@code TASKQ_PRUNE_BATCH_SIZE} rows. No {@code job_events} rows: the statement timeout
 * protecting the event feed's watermark does not bind prune, hence its larger batches (guide §3).
 */
public final class PruneSweep implements SweepBatch {
  /** The sweep's name in metrics and logs. */
  public static final String NAME = "prune";

  /** Daily, drained until a batch moves nothing. */
  public static final Cadence CADENCE = Cadence.DAILY;

  /** {@code TASKQ_PRUNE_BATCH_SIZE}'s default. */
  public static final int DEFAULT_BATCH_SIZE = 10_000;

  /** The default daily run time, UTC. */
  public static final LocalTime DEFAULT_TIME = LocalTime.of(3, 0);

  private static final String SQL = "io/taskq/postgres/sql/sweep/prune.sql";

  private final LockedAgeStatement batch;

  /**
   * A prune of {@code schema}'s {@code jobs}.
   *
   * @param pruneAfter how long a terminal job stays in {@code jobs} after it finished; above zero,
   *     at most 36 500 days
   * @throws IllegalArgumentException when {@code pruneAfter} is out of range
   */
  public PruneSweep(SchemaName schema, Duration pruneAfter) {
    this.batch =
        new LockedAgeStatement(
            schema,
            SQL,
            "archive_finished_jobs",
            AdvisoryLockName.Purpose.PRUNE,
            SweepPeriod.positive("TASKQ_PRUNE_AFTER", pruneAfter));
  }

  @Override
  public String sweepName() {
    return NAME;
  }

  /** Returns the jobs archived; 0 when another process holds the prune lock. */
  @Override
  public int run(Connection tx, int batchSize) throws SQLException {
    return batch.run(NAME, tx, batchSize);
  }
}
