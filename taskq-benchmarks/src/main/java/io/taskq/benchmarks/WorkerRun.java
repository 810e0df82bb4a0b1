package io.taskq.benchmarks;

import io.taskq.Actor;
import io.taskq.JobInterceptor;
import io.taskq.TaskQ;
import io.taskq.TaskQConfig;
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
 * {@value #FINISH_POLL_MICROS} µs whether any of them is still unfinished, then how many are {@code
 * succeeded}, so a job counts only once its outcome is committed, and counting rows does not load
 * the database during the run itself.
 */
final class WorkerRun implements AutoCloseable {
  static final long POLL_MILLIS = 10;

  /** How often the database is asked, once every handler has run, whether all are finished. */
  static final long FINISH_POLL_MICROS = 500;

  /** The default polling fallback, {@code TASKQ_POLL_INTERVAL}. */
  static final Duration DEFAULT_POLL_INTERVAL = TaskQConfig.defaults().pollInterval();

  private final BenchDatabase db;
  private final TaskQ taskq;
  private final AtomicLong handled = new AtomicLong();
  private long succeededBefore;
  private long idFloor = -1;

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
   * Whether none of the measured jobs is pending or running: read from the two states' partial
   * indexes, so it costs little however many jobs have succeeded (unlike {@link #succeeded()}).
   */
  private boolean noneUnfinished() throws SQLException {
    return db.queryLong(
            "SELECT count(*) FROM "
                + db.table("jobs")
                + " WHERE status IN ('pending', 'running') AND id > ?",
            Math.max(idFloor, 0))
        == 0;
  }

  /**
   * Waits until {@code jobs} jobs succeeded, telling {@code eachSecond} the count about once a
   * second; fails when no progress is made for a minute. Returns the {@link System#nanoTime()} at
   * which they were seen finished: once every handler has run, the database is asked every {@value
   * #FINISH_POLL_MICROS} µs whether a measured job is still pending or running; the first time none
   * is, that moment is kept and the succeeded jobs are counted to confirm it (a count that falls
   * short, e.g. a job that failed and waits for its retry, goes back to waiting). So the confirming
   * count, which reads every measured row, is not inside the measured interval.
   */
  long awaitSucceeded(long jobs, LongConsumer eachSecond) throws SQLException {
    long lastProgressAt = System.nanoTime();
    long lastTickAt = lastProgressAt;
    long last = -1;
    long countedAt = lastProgressAt;
    while (true) {
      long succeeded = handled.get();
      long now = System.nanoTime();
      // Pending or running rows of other runs would keep noneUnfinished() false: then the count
      // alone decides, at most every POLL_MILLIS.
      if (succeeded >= jobs
          && (noneUnfinished() || now - countedAt >= Duration.ofMillis(POLL_MILLIS).toNanos())) {
        long finishedAt = System.nanoTime();
        countedAt = finishedAt;
        // Jobs that had succeeded before the start (the scale mode's finished rows) do not count.
        succeeded = succeeded();
        if (succeeded >= jobs) {
          return finishedAt;
        }
      }
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
      LockSupport.parkNanos(
          handled.get() >= jobs
              ? Duration.ofNanos(FINISH_POLL_MICROS * 1000).toNanos()
              : Duration.ofMillis(POLL_MILLIS).toNanos());
    }
  }

  @Override
  public void close() {
    taskq.close();
  }
}
