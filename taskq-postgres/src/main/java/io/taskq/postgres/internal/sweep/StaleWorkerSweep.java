package io.taskq.postgres.internal.sweep;

import io.taskq.core.SchemaName;
import io.taskq.postgres.internal.NamedStatements;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;

/**
 * S6 {@code cleanup_stale_workers}: deletes {@code workers} rows whose heartbeat is older than
 * {@code workerStaleAfter} (L10).
 *
 * <p>Deleting a worker sets {@code job_attempts.worker_id} to NULL on every attempt it ran ({@code
 * ON DELETE SET NULL}), a fan-out as large as the worker's history. A bound on deleted workers
 * alone would not bound that, so each batch runs two statements: it detaches at most {@code
 * batchSize} attempts of stale workers, then deletes at most {@code batchSize} stale workers no
 * attempt references any more. A batch thus writes at most {@code 2 x batchSize} rows; a worker
 * with a long history is detached over several batches and deleted by the last. The returned count
 * is attempts detached plus workers deleted, so the loop keeps draining while either remains.
 *
 * <p>A stale worker that still owns {@code running} jobs is deleted too: S1's heartbeat arm
 * reclaims jobs whose owner's heartbeat is stale <em>or whose owner row is gone</em>, so the jobs
 * are not stranded. A worker that was only paused and comes back finds its row gone and must
 * register again.
 */
public final class StaleWorkerSweep implements SweepBatch {
  /** The sweep's name in metrics and logs. */
  public static final String NAME = "cleanup_stale_workers";

  /** Drained. */
  public static final Cadence CADENCE = Cadence.DRAINED;

  /** {@code TASKQ_EVENT_WRITER_BATCH_SIZE}'s default; the loop passes the configured value. */
  public static final int DEFAULT_BATCH_SIZE = 100;

  private static final String SQL = "io/taskq/postgres/sql/sweep/stale_workers.sql";

  private final String detachStaleAttempts;
  private final String deleteStaleWorkers;
  private final SweepPeriod staleAfter;

  /**
   * A sweep of {@code schema}'s {@code workers}.
   *
   * @param staleAfter how old a heartbeat makes a worker stale ({@code workerStaleAfter}); above
   *     zero, at most 36 500 days
   * @throws IllegalArgumentException when {@code staleAfter} is out of range
   */
  public StaleWorkerSweep(SchemaName schema, Duration staleAfter) {
    this.staleAfter = SweepPeriod.positive("TASKQ_WORKER_STALE_AFTER", staleAfter);
    NamedStatements sql = NamedStatements.load(SQL, schema);
    this.detachStaleAttempts = sql.get("detach_stale_attempts");
    this.deleteStaleWorkers = sql.get("delete_stale_workers");
  }

  @Override
  public String sweepName() {
    return NAME;
  }

  @Override
  public int run(Connection tx, int batchSize) throws SQLException {
    SweepArguments.check(NAME, tx, batchSize);
    return execute(tx, detachStaleAttempts, batchSize) + execute(tx, deleteStaleWorkers, batchSize);
  }

  private int execute(Connection tx, String sql, int batchSize) throws SQLException {
    try (PreparedStatement ps = tx.prepareStatement(sql)) {
      ps.setLong(1, staleAfter.micros());
      ps.setInt(2, batchSize);
      return ps.executeUpdate();
    }
  }
}
