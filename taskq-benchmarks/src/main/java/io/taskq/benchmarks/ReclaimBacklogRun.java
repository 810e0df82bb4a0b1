package io.taskq.benchmarks;

import io.taskq.TaskQConfig;
import io.taskq.postgres.internal.sweep.BatchExecutor;
import io.taskq.postgres.internal.sweep.BatchFence;
import io.taskq.postgres.internal.sweep.LeaseReclaimSweep;
import io.taskq.spi.MaintenanceListener;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Figure (e), issue 4: a backlog of running jobs whose leases expired, drained by the S1 sweep
 * ({@code reclaim_expired_locks}) one batch after another with the default batch size and statement
 * timeout, as the sweep loop drains it.
 *
 * <p>The backlog is inserted by SQL: running jobs of a live worker (fresh heartbeat, and a
 * stale-after of an hour so the heartbeat arm stays out of the way), leases expired a minute ago,
 * attempts left, so every row takes the lease arm and goes back to {@code pending} with its {@code
 * job_attempts} and {@code job_events} rows.
 */
final class ReclaimBacklogRun {
  static final String OWNER = "bench-owner";

  private final BenchDatabase db;

  ReclaimBacklogRun(BenchDatabase db) {
    this.db = db;
  }

  /** What one drain measured. */
  record Drain(int rows, int batches, long nanos, List<Long> batchNanos, long statements) {
    double rowsPerSecond() {
      return rows / (nanos / 1e9);
    }

    double millisPerRow() {
      return nanos / 1e6 / rows;
    }

    double statementsPerBatch() {
      return statements / (double) batches;
    }
  }

  void insertBacklog(int rows) throws SQLException {
    db.execute(
        "INSERT INTO "
            + db.table("workers")
            + " (id, hostname, pid, queues, concurrency) VALUES ('"
            + OWNER
            + "', 'bench', 1, '{default}', 8)");
    db.execute(
        "INSERT INTO "
            + db.table("jobs")
            + " (actor, queue, status, payload, run_at, attempt, max_attempts, retry_backoff,"
            + " retry_base_ms, retry_cap_ms, retry_jitter, locked_by, lock_expires_at,"
            + " lease_token, started_at, created_at)"
            + " SELECT '"
            + EnqueueRun.ACTOR
            + "', 'default', 'running', jsonb_build_object('n', g), now() - interval '2 minutes',"
            + " 1, 5, 'exponential', 1000, 60000, 0.2, '"
            + OWNER
            + "', now() - interval '1 minute' - g * interval '1 microsecond',"
            + " nextval('"
            + db.schema.quoted()
            + ".lease_token_seq'), now() - interval '2 minutes', now() - interval '2 minutes'"
            + " FROM generate_series(1, "
            + rows
            + ") g");
    db.execute("VACUUM ANALYZE " + db.table("jobs"));
  }

  /** Runs S1 batches until one returns no row. */
  Drain drain(int expectedRows) throws SQLException {
    TaskQConfig defaults = TaskQConfig.defaults();
    int batchSize = defaults.eventWriterBatchSize();
    Duration timeout = defaults.eventWriterStatementTimeout();
    LeaseReclaimSweep sweep =
        new LeaseReclaimSweep(
            db.schema,
            Duration.ofHours(1),
            defaults.maxRetryBackoff(),
            new MaintenanceListener() {});
    BatchExecutor executor = new BatchExecutor(db.schema);
    CountingDataSource counting = new CountingDataSource(db.pool);
    List<Long> batchNanos = new ArrayList<>();
    int rows = 0;
    long statements = 0;
    long start = System.nanoTime();
    while (true) {
      long before = counting.executed();
      long batchStart = System.nanoTime();
      int got = executor.runInOwnTransaction(counting, sweep, batchSize, timeout, BatchFence.NONE);
      long took = System.nanoTime() - batchStart;
      if (got == 0) {
        break;
      }
      batchNanos.add(took);
      statements += counting.executed() - before;
      rows += got;
    }
    long nanos = System.nanoTime() - start;
    if (rows != expectedRows) {
      throw new IllegalStateException("S1 reclaimed " + rows + " rows, expected " + expectedRows);
    }
    return new Drain(rows, batchNanos.size(), nanos, batchNanos, statements);
  }
}
