package io.taskq.postgres.internal.completion;

import io.taskq.postgres.internal.execution.Completion;
import java.time.Duration;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator's line for a job that failed for good (P4): one WARN per job, naming the actor, job
 * id, attempt and error class, with the error message (already bounded for storage).
 *
 * <p>A flood (a broken dependency failing every job of an actor) must not bury the log: at most
 * {@value #BURST} such lines per {@link #WINDOW}; beyond that the jobs are counted, and the first
 * line after the window says how many went unlogged ({@code WARN ... and 1234 more jobs failed for
 * good without a line of their own}), as does the worker's shutdown. The database keeps every
 * failure ({@code job_attempts}, the metrics' {@code taskq.jobs.failed}); this log is for noticing,
 * not counting.
 */
final class FailedForGoodLog {
  static final int BURST = 10;
  static final Duration WINDOW = Duration.ofMinutes(1);

  private static final Logger LOG = LoggerFactory.getLogger(FailedForGoodLog.class);

  private final LongSupplier nanoTime;
  private long windowStart;
  private int logged;
  private long suppressed;

  FailedForGoodLog() {
    this(System::nanoTime);
  }

  /** With the clock a test controls. */
  FailedForGoodLog(LongSupplier nanoTime) {
    this.nanoTime = nanoTime;
    this.windowStart = nanoTime.getAsLong();
  }

  /**
   * {@code c} was recorded as failed with no attempt left. Called on the completer thread.
   *
   * @return whether it got a line of its own (false: counted for the next summary)
   */
  synchronized boolean failedForGood(Completion c) {
    long now = nanoTime.getAsLong();
    if (now - windowStart >= WINDOW.toNanos()) {
      reportSuppressed();
      windowStart = now;
      logged = 0;
    }
    if (logged >= BURST) {
      suppressed++;
      return false;
    }
    logged++;
    LOG.warn(
        "job failed for good: actor={} job_id={} attempt={}/{} error_class={}: {}",
        c.job().actor(),
        c.job().jobId(),
        c.job().attempt(),
        c.job().maxAttempts(),
        c.outcome().errorClass(),
        c.outcome().errorMessage());
    return true;
  }

  /**
   * Says how many failures went unlogged since the last summary, if any.
   *
   * @return that number
   */
  synchronized long reportSuppressed() {
    long count = suppressed;
    if (suppressed > 0) {
      LOG.warn(
          "... and {} more jobs failed for good without a line of their own (at most {} lines every"
              + " {} s; job_attempts records each)",
          suppressed,
          BURST,
          WINDOW.toSeconds());
      suppressed = 0;
    }
    return count;
  }
}
