package io.taskq.benchmarks;

import io.taskq.TaskQ;
import io.taskq.TaskQConfig;
import io.taskq.spi.MaintenanceListener;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

/**
 * Figure (e), issue 4: a backlog of running jobs whose leases expired, drained by the S1 sweep
 * ({@code reclaim_expired_locks}) one batch after another with the default batch size and statement
 * timeout, by the maintenance leader of a producer-only root (the public API only, K2). The
 * statements per batch count every statement on the root's pool while it leads (S1's and the other
 * sweeps' of the same cadence).
 *
 * <p>The backlog is inserted by SQL: running jobs of a live worker (fresh heartbeat, and a
 * stale-after of an hour so the heartbeat arm stays out of the way), leases expired a minute ago,
 * attempts left, so every row takes the lease arm and goes back to {@code pending} with its {@code
 * job_attempts} and {@code job_events} rows.
 */
final class ReclaimBacklogRun {
  static final String OWNER = "bench-owner";

  /** S1's default batch size ({@code TASKQ_EVENT_WRITER_BATCH_SIZE}), which the figure keeps. */
  static final int BATCH_SIZE = TaskQConfig.builder().build().eventWriterBatchSize();

  /** The default sweep-loop interval ({@code TASKQ_SWEEP_INTERVAL}). */
  static final Duration SWEEP_INTERVAL = TaskQConfig.builder().build().sweepInterval();

  /** The most batches per tick {@code TASKQ_SWEEP_DRAIN_BATCHES} accepts. */
  static final int MAX_DRAIN_BATCHES = 10_000;

  private static final String S1 = "reclaim_expired_locks";

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

  /**
   * The drain bound per tick for a backlog of {@code rows}: {@code asked}, or when 0, enough
   * batches of the default size for the whole backlog in one tick (the sweep docs' advice for a
   * known large recovery). At the default bound of 8 the drain is paced by the 30 s tick (about 16
   * minutes for 50 000 rows, by design), which would measure the interval, not the reclaim.
   */
  static int drainBatches(int asked, int rows) {
    return asked > 0 ? asked : Math.min(MAX_DRAIN_BATCHES, rows / BATCH_SIZE + 2);
  }

  /**
   * Lets a producer-only root with maintenance on lead the schema and drain the backlog with S1,
   * its batches heard through the public maintenance listener (duration, then rows, per batch).
   */
  Drain drain(int expectedRows, int drainBatches) throws Exception {
    S1Batches s1 = new S1Batches();
    CountingDataSource counting = new CountingDataSource(db.pool);
    long statementsAtStart;
    long start = System.nanoTime();
    try (TaskQ leader = leader(counting, s1, drainBatches)) {
      statementsAtStart = counting.executed();
      leader.start();
      s1.awaitRows(expectedRows, TimeUnit.MINUTES.toNanos(10));
    }
    long nanos = System.nanoTime() - start;
    long statements = counting.executed() - statementsAtStart;
    if (s1.rows.get() != expectedRows) {
      throw new IllegalStateException(
          "S1 reclaimed " + s1.rows + " rows, expected " + expectedRows);
    }
    List<Long> batches = List.copyOf(s1.batchNanos);
    return new Drain(s1.rows.get(), batches.size(), nanos, batches, statements);
  }

  /** A producer root that leads maintenance, on {@code dataSource}, telling {@code listener}. */
  private TaskQ leader(DataSource dataSource, MaintenanceListener listener, int drainBatches) {
    return TaskQ.producer(dataSource)
        .config(TaskQConfig.builder().schemaName(db.schema).sweepDrainBatches(drainBatches).build())
        .migrate(false)
        .maintenance(true)
        .listener(listener)
        .build();
  }

  /** The rows and durations of S1's batches that reclaimed something, as the leader reports. */
  private static final class S1Batches implements MaintenanceListener {
    final List<Long> batchNanos = Collections.synchronizedList(new ArrayList<>());
    final AtomicInteger rows = new AtomicInteger();
    private final AtomicLong lastNanos = new AtomicLong();

    @Override
    public void sweepDuration(String sweepName, Duration duration, boolean aborted) {
      if (S1.equals(sweepName) && !aborted) {
        lastNanos.set(duration.toNanos());
      }
    }

    @Override
    public void sweepRows(String sweepName, int n) {
      if (S1.equals(sweepName) && n > 0) {
        batchNanos.add(lastNanos.get());
        rows.addAndGet(n);
      }
    }

    void awaitRows(int expected, long timeoutNanos) throws InterruptedException {
      long deadline = System.nanoTime() + timeoutNanos;
      while (rows.get() < expected) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              "S1 reclaimed " + rows.get() + " rows in 10 minutes, expected " + expected);
        }
        TimeUnit.MILLISECONDS.sleep(5);
      }
    }
  }
}
