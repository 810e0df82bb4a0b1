package io.taskq.benchmarks;

import io.taskq.TaskQ;
import io.taskq.TaskQConfig;
import io.taskq.spi.MaintenanceListener;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
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
 * <p>The backlog is inserted by SQL: running jobs of one worker, leases expired a minute ago,
 * attempts left, so every row goes back to {@code pending} with its {@code job_attempts} and {@code
 * job_events} rows. The worker's heartbeat is fresh at the start and never refreshed, so for the
 * default {@code TASKQ_WORKER_STALE_AFTER} (60 s) only the lease arm takes its jobs (one batch size
 * per batch); after that the heartbeat arm takes them too (twice the batch size per batch), as
 * after a real crash. A drain of the whole backlog in one tick is over long before that; a paced
 * drain (the default bound) reaches the design's 8 x 100 x 2 = 1 600 rows per tick from its third
 * tick on.
 */
final class ReclaimBacklogRun {
  static final String OWNER = "bench-owner";

  /** S1's default batch size ({@code TASKQ_EVENT_WRITER_BATCH_SIZE}), which the figure keeps. */
  static final int BATCH_SIZE = TaskQConfig.builder().build().eventWriterBatchSize();

  /** The default sweep-loop interval ({@code TASKQ_SWEEP_INTERVAL}). */
  static final Duration SWEEP_INTERVAL = TaskQConfig.builder().build().sweepInterval();

  /** The most batches per tick {@code TASKQ_SWEEP_DRAIN_BATCHES} accepts. */
  static final int MAX_DRAIN_BATCHES = 10_000;

  /** S1's two arms (lease, heartbeat), each limited to the batch size. */
  static final int ARMS = 2;

  /** The shortest wait for a drain, whatever its pace (the fixed wait of the figures before). */
  static final Duration MIN_WAIT = Duration.ofMinutes(10);

  private static final String S1 = "reclaim_expired_locks";

  private final BenchDatabase db;

  ReclaimBacklogRun(BenchDatabase db) {
    this.db = db;
  }

  /** What one drain measured; {@code ticks} are the sweep ticks in which S1 reclaimed rows. */
  record Drain(
      int rows, int batches, long nanos, List<Long> batchNanos, long statements, List<Tick> ticks) {
    double rowsPerSecond() {
      return rows / (nanos / 1e9);
    }

    double millisPerRow() {
      return nanos / 1e6 / rows;
    }

    double statementsPerBatch() {
      return statements / (double) batches;
    }

    /** From the end of the first S1 batch to the end of the last, in nanoseconds. */
    long firstToLastNanos() {
      return ticks.get(ticks.size() - 1).lastNanos() - ticks.get(0).firstNanos();
    }

    /** The rows of each tick in order, runs of equal ticks written once (e.g. "800 x2, 1600"). */
    String rowsPerTick() {
      List<String> runs = new ArrayList<>();
      for (int i = 0; i < ticks.size(); ) {
        int rows = ticks.get(i).rows();
        int run = 1;
        while (i + run < ticks.size() && ticks.get(i + run).rows() == rows) {
          run++;
        }
        runs.add(run == 1 ? Integer.toString(rows) : rows + " x" + run);
        i += run;
      }
      return String.join(", ", runs);
    }

    /** The batches' own time per row: the reclaim's work, without the waits between ticks. */
    double batchMillisPerRow() {
      return batchNanos.stream().mapToLong(Long::longValue).sum() / 1e6 / rows;
    }

    /**
     * Two lines on how the drain was paced, beside the design at {@code drainBatches} per tick:
     * total time, ticks, rows per tick, the time from the first batch to the last against whole
     * sweep intervals, and the batches' own time per row.
     */
    String pace(int drainBatches) {
      return String.format(
          Locale.ROOT,
          "  drained in %.1f s; sweep ticks with S1 batches %d, rows per tick %s"
              + " (design: up to %d x %d x %d = %d)%n"
              + "  first to last batch %.1f s (%d intervals of %d s = %d s);"
              + " batch time %.3f ms per row%n",
          nanos / 1e9,
          ticks.size(),
          rowsPerTick(),
          drainBatches,
          BATCH_SIZE,
          ARMS,
          designedRowsPerTick(drainBatches),
          firstToLastNanos() / 1e9,
          ticks.size() - 1,
          SWEEP_INTERVAL.toSeconds(),
          (ticks.size() - 1) * SWEEP_INTERVAL.toSeconds(),
          batchMillisPerRow());
    }
  }

  /** One sweep tick's S1 batches: when the first and the last reported, and the rows of all. */
  record Tick(long firstNanos, long lastNanos, int rows) {
    Tick plus(long atNanos, int n) {
      return new Tick(firstNanos, atNanos, rows + n);
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
   * How long {@link #drain} waits for {@code rows} at {@code drainBatches} per tick: twice the
   * ticks the drain needs at the lease arm's pace alone (one batch size per batch, the slower of
   * the design's two paces), each a sweep interval, and never less than {@link #MIN_WAIT}. At the
   * defaults 50 000 rows need 63 such ticks, so the wait is 63 minutes for a drain the design puts
   * at about 16.
   */
  static Duration waitBound(int rows, int drainBatches) {
    long perTick = (long) drainBatches * BATCH_SIZE;
    long ticks = (rows + perTick - 1) / perTick;
    Duration paced = SWEEP_INTERVAL.multipliedBy(2 * ticks);
    return paced.compareTo(MIN_WAIT) > 0 ? paced : MIN_WAIT;
  }

  /** The design's most rows per tick at {@code drainBatches}: every batch full in both arms. */
  static int designedRowsPerTick(int drainBatches) {
    return drainBatches * BATCH_SIZE * ARMS;
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
      s1.awaitRows(expectedRows, waitBound(expectedRows, drainBatches), drainBatches);
    }
    long nanos = System.nanoTime() - start;
    long statements = counting.executed() - statementsAtStart;
    if (s1.rows.get() != expectedRows) {
      throw new IllegalStateException(
          "S1 reclaimed " + s1.rows + " rows, expected " + expectedRows);
    }
    List<Long> batches = List.copyOf(s1.batchNanos);
    return new Drain(
        s1.rows.get(), batches.size(), nanos, batches, statements, List.copyOf(s1.ticks));
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

  /**
   * The rows and durations of S1's batches that reclaimed something, as the leader reports, and the
   * ticks they fell in: a batch reported more than half a sweep interval after the one before
   * starts a new tick (a tick's batches follow one another within milliseconds).
   */
  private static final class S1Batches implements MaintenanceListener {
    final List<Long> batchNanos = Collections.synchronizedList(new ArrayList<>());
    final List<Tick> ticks = Collections.synchronizedList(new ArrayList<>());
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
        addToTick(System.nanoTime(), n);
        rows.addAndGet(n);
      }
    }

    private void addToTick(long atNanos, int n) {
      synchronized (ticks) {
        int last = ticks.size() - 1;
        if (last >= 0 && atNanos - ticks.get(last).lastNanos() < SWEEP_INTERVAL.toNanos() / 2) {
          ticks.set(last, ticks.get(last).plus(atNanos, n));
        } else {
          ticks.add(new Tick(atNanos, atNanos, n));
        }
      }
    }

    void awaitRows(int expected, Duration bound, int drainBatches) throws InterruptedException {
      long deadline = System.nanoTime() + bound.toNanos();
      while (rows.get() < expected) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              "S1 reclaimed "
                  + rows.get()
                  + " rows in "
                  + bound.toMinutes()
                  + " minutes (the wait bound for "
                  + expected
                  + " rows at "
                  + drainBatches
                  + " batches per tick), expected "
                  + expected);
        }
        TimeUnit.MILLISECONDS.sleep(5);
      }
    }
  }
}
