package io.taskq.benchmarks;

import io.taskq.Actor;
import io.taskq.JobInterceptor;
import io.taskq.TaskQ;
import io.taskq.TaskQConfig;
import io.taskq.operations.PauseTarget;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;
import org.jspecify.annotations.Nullable;

/**
 * A TaskQ worker in this process running the no-op actor until a number of jobs succeeded: figures
 * (b), (c) and (d).
 *
 * <p>The handler counts the jobs it ran; once that count is reached, the database is asked every
 * {@value #POLL_MILLIS} ms how many jobs are {@code succeeded}, so a job counts only once its
 * outcome is committed, and counting rows does not load the database during the run itself.
 *
 * <p>A timed run ({@link #startSettled}, {@link #resumeTimed()}, {@link #timedNanos()}) starts the
 * worker with its queues paused, waits until the start's own work is over, and reads its interval
 * from the database's clock: from a {@code clock_timestamp()} read just before the resume to the
 * newest {@code finished_at} of the succeeded jobs, which the completion statement writes from the
 * same clock in the transaction that commits the outcome. So the interval holds what a running
 * worker does with a backlog let go (claims, handlers, completions), not its start, as the raw
 * claim's holds its claims and not its connecting; neither the polling's period nor the counts' own
 * time is in it, and nothing is asked of the database while it runs.
 */
final class WorkerRun implements AutoCloseable {
  static final long POLL_MILLIS = 10;

  /** The database's clock now, in microseconds since the epoch. */
  private static final String EPOCH_MICROS_NOW =
      "SELECT (extract(epoch FROM clock_timestamp()) * 1000000)::bigint";

  /** The default polling fallback, {@code TASKQ_POLL_INTERVAL}. */
  static final Duration DEFAULT_POLL_INTERVAL = TaskQConfig.defaults().pollInterval();

  /** The reason stored with the pause a settled start holds its queues with. */
  private static final String HELD = "held until the timed interval starts";

  private static final Duration SETTLE_LEAST = Duration.ofMillis(300);
  private static final Duration SETTLE_MOST = Duration.ofSeconds(10);
  private static final Duration QUIET_SLICE = Duration.ofMillis(200);

  /** 20 ms of CPU in a 200 ms slice: a tenth of one core, for this JVM and the server together. */
  private static final long QUIET_TICKS = 2;

  private final BenchDatabase db;
  private final TaskQ taskq;
  private final AtomicLong handled = new AtomicLong();
  private long succeededBefore;
  private long idFloor = -1;
  private long startedAtMicros = -1;
  private boolean paused;

  /**
   * @param pollInterval the worker's polling fallback; long to prove LISTEN/NOTIFY alone wakes it
   */
  WorkerRun(BenchDatabase db, int threads, Duration pollInterval) {
    this(db, threads, pollInterval, List.of());
  }

  /**
   * @param interceptors registered for every actor of the worker's TaskQ (the interceptor figure)
   */
  WorkerRun(
      BenchDatabase db, int threads, Duration pollInterval, List<JobInterceptor> interceptors) {
    this.db = db;
    TaskQConfig config =
        // TASKQ_* variables apply (e.g. TASKQ_CLAIM_BATCH_SIZE to compare batch sizes); the
        // schema, the handler threads and the poll interval are the benchmark's own.
        TaskQConfig.builder(System.getenv())
            .schemaName(db.schema)
            .workerConcurrency(threads)
            .pollInterval(pollInterval)
            .build();
    TaskQ.Builder builder = TaskQ.builder(db.pool).config(config).migrate(false);
    interceptors.forEach(builder::intercept);
    this.taskq = builder.build();
    taskq.register(Actor.rawJson(EnqueueRun.ACTOR, (payload, ctx) -> count()));
  }

  private @Nullable Object count() {
    handled.incrementAndGet();
    return null;
  }

  void start() throws SQLException {
    succeededBefore = db.countJobs("succeeded");
    taskq.start();
  }

  /**
   * Starts the worker with every queue paused and waits until its start has settled: the start's
   * own work (registration, the LISTEN connection, the maintenance leader's election and first
   * sweeps) is done once both this JVM and the PostgreSQL processes go quiet (at most {@value
   * #QUIET_TICKS} clock ticks of CPU together in a {@link #QUIET_SLICE} slice, after at least
   * {@link #SETTLE_LEAST}, at most {@link #SETTLE_MOST}; without {@code /proc}, the least). Then
   * {@link #resumeTimed()} lets the jobs go, as the raw claim's threads are let go with their
   * connections open and their statements prepared.
   *
   * @param idFloor count only the jobs above it ({@link #startAbove}); negative to count every job
   *     that succeeds after the start ({@link #start()})
   */
  private void startSettled(long idFloor) throws SQLException, InterruptedException {
    taskq.operations().pause(PauseTarget.allQueues(), "benchmark", HELD);
    paused = true;
    if (idFloor < 0) {
      start();
    } else {
      startAbove(idFloor);
    }
    long deadline = System.nanoTime() + SETTLE_MOST.toNanos();
    Thread.sleep(SETTLE_LEAST.toMillis());
    CpuTicks last = CpuTicks.read();
    while (System.nanoTime() < deadline) {
      Thread.sleep(QUIET_SLICE.toMillis());
      CpuTicks now = CpuTicks.read();
      long used = now.jvm() - last.jvm() + now.postgres() - last.postgres();
      last = now;
      if (used <= QUIET_TICKS) {
        return;
      }
    }
  }

  /**
   * After {@link #startSettled}: reads the database's clock, the start of the interval {@link
   * #timedNanos()} returns, then resumes every queue (A4's resume, which wakes the worker at once
   * through the wake channel).
   */
  private void resumeTimed() throws SQLException {
    if (!paused) {
      throw new IllegalStateException("resumeTimed() needs startSettled()");
    }
    startedAtMicros = db.queryLong(EPOCH_MICROS_NOW);
    taskq.operations().resume(PauseTarget.allQueues(), "benchmark");
    paused = false;
  }

  /** A timed run's interval ({@link #timedNanos()}) and the CPU used inside it, per job. */
  record Timed(long nanos, CpuTicks.Used cpu) {}

  /**
   * {@link #startSettled}, then {@link #resumeTimed()} and {@link #awaitSucceeded} for {@code jobs}
   * jobs: the timed interval and the CPU used inside it.
   */
  Timed runSettled(long idFloor, long jobs) throws SQLException, InterruptedException {
    startSettled(idFloor);
    CpuTicks cpu = CpuTicks.read();
    resumeTimed();
    awaitSucceeded(jobs, done -> {});
    CpuTicks.Used used = CpuTicks.read().usedSince(cpu, jobs);
    return new Timed(timedNanos(), used);
  }

  /**
   * After {@link #awaitSucceeded}: the time from the database clock's reading at the timed start to
   * the newest {@code finished_at} of a succeeded job (read through {@code jobs_terminal_idx}, the
   * last entry of its range), in nanoseconds. The newest finished job is one of this run's: every
   * other succeeded row finished before it started. The outcome's commit, a moment after its row's
   * {@code finished_at}, is not in it (the raw claim's interval ends after its last commit).
   */
  long timedNanos() throws SQLException {
    if (startedAtMicros < 0) {
      throw new IllegalStateException("timedNanos() needs resumeTimed()");
    }
    long finishedAtMicros =
        db.queryLong(
            "SELECT (extract(epoch FROM max(finished_at)) * 1000000)::bigint FROM "
                + db.table("jobs")
                + " WHERE status = 'succeeded'");
    return (finishedAtMicros - startedAtMicros) * 1000;
  }

  /**
   * Starts the worker counting only the jobs above {@code idFloor}, the highest id of the rows that
   * were in the table before the measured jobs (the scale mode's 1 000 000 finished rows; 0 for an
   * empty table): a count of every succeeded job would read those rows too, inside the timed run
   * (about 150 ms a count at 1 000 000, twice per run), and charge a harness cost to the table. The
   * scale mode starts every table's worker this way, so each table's count is the same statement
   * over the same measured rows.
   */
  void startAbove(long idFloor) throws SQLException {
    this.idFloor = idFloor;
    taskq.start();
  }

  private long succeeded() throws SQLException {
    return idFloor >= 0
        ? db.queryLong(
            "SELECT count(*) FROM " + db.table("jobs") + " WHERE status = 'succeeded' AND id > ?",
            idFloor)
        : db.countJobs("succeeded") - succeededBefore;
  }

  /**
   * Waits until {@code jobs} jobs succeeded, telling {@code eachSecond} the count about once a
   * second; fails when no progress is made for a minute.
   */
  void awaitSucceeded(long jobs, LongConsumer eachSecond) throws SQLException {
    long lastProgressAt = System.nanoTime();
    long lastTickAt = lastProgressAt;
    long last = -1;
    while (true) {
      long succeeded = handled.get();
      if (succeeded >= jobs) {
        // Jobs that had succeeded before the start (the scale mode's finished rows) do not count.
        succeeded = succeeded();
        if (succeeded >= jobs) {
          return;
        }
      }
      long now = System.nanoTime();
      if (succeeded != last) {
        last = succeeded;
        lastProgressAt = now;
      } else if (now - lastProgressAt > Duration.ofMinutes(1).toNanos()) {
        throw new IllegalStateException(
            "no progress for a minute: " + succeeded + " of " + jobs + " jobs succeeded");
      }
      if (now - lastTickAt >= Duration.ofSeconds(1).toNanos()) {
        lastTickAt = now;
        eachSecond.accept(succeeded);
      }
      LockSupport.parkNanos(Duration.ofMillis(POLL_MILLIS).toNanos());
    }
  }

  @Override
  public void close() {
    if (paused) {
      // A run that failed before its resume leaves no stored pause for the next worker.
      taskq.operations().resume(PauseTarget.allQueues(), "benchmark");
    }
    taskq.close();
  }
}
