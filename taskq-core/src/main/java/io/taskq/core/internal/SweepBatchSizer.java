package io.taskq.core.internal;

import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * The breaker of a bounded sweep: the batch size it uses, latched down to a reduced tier after
 * repeated aborted batches (T2, guide §3).
 *
 * <p><b>Rule.</b> {@code failureThreshold} consecutive aborted batches (a client timeout, or the
 * server's {@code statement_timeout} cancel, SQLSTATE 57014; see {@link #isAbort(Throwable)}) whose
 * span fits the rolling {@code window} latch the sizer: from then on {@link #currentBatchSize()} is
 * {@code max(1, configured / divisor)}. A success between aborts resets the count; an abort older
 * than the window (measured back from the latest abort) drops out of the run.
 *
 * <p><b>Why the latch is one-way.</b> The control signal is contaminated: a timeout from a brief
 * lock pile-up says nothing about whether the next full batch will fit, and every trial of the full
 * tier can roll back a transaction holding row locks. Under sustained pressure the batch duration
 * would flap between tiers. So the sizer stays degraded for its whole life (the life of the
 * process) and the remedy is a restart; the reduced tier is a ceiling, not a floor, and the sweep
 * keeps draining in smaller committed batches.
 *
 * <p>Wraps S1, S2 and S3 only; the other sweeps pass their batch size explicitly. Thread-safe. Time
 * is a monotonic nanosecond source (normally {@link System#nanoTime()}), injected so tests drive
 * it.
 */
public final class SweepBatchSizer {
  private final String sweepName;
  private final int configuredBatchSize;
  private final int reducedBatchSize;
  private final int failureThreshold;
  private final long windowNanos;
  private final LongSupplier nanoTime;

  /** Times of the current run's aborts still inside the window; at most the threshold of them. */
  private final ArrayDeque<Long> recentAborts = new ArrayDeque<>();

  private boolean latched;

  /**
   * A sizer on the real monotonic clock.
   *
   * @see #SweepBatchSizer(String, int, int, int, Duration, LongSupplier)
   */
  public SweepBatchSizer(
      String sweepName,
      int configuredBatchSize,
      int reducedDivisor,
      int failureThreshold,
      Duration window) {
    this(
        sweepName, configuredBatchSize, reducedDivisor, failureThreshold, window, System::nanoTime);
  }

  /**
   * A sizer; each argument is checked at once.
   *
   * @param sweepName the sweep's metric label, e.g. {@code reclaim_expired_locks}; not empty
   * @param configuredBatchSize {@code TASKQ_EVENT_WRITER_BATCH_SIZE}, at least 1
   * @param reducedDivisor {@code TASKQ_EVENT_WRITER_REDUCED_BATCH_DIVISOR}, at least 1
   * @param failureThreshold {@code TASKQ_SWEEP_BREAKER_FAILURE_THRESHOLD}, at least 1
   * @param window {@code TASKQ_SWEEP_BREAKER_WINDOW_SECS}, positive
   * @param nanoTime a monotonic clock in nanoseconds, like {@link System#nanoTime()}
   * @throws IllegalArgumentException naming the argument, its value and the allowed range
   */
  public SweepBatchSizer(
      String sweepName,
      int configuredBatchSize,
      int reducedDivisor,
      int failureThreshold,
      Duration window,
      LongSupplier nanoTime) {
    this.sweepName = RedisKeys.requireNonEmpty(sweepName, "sweepName");
    this.configuredBatchSize = atLeastOne(configuredBatchSize, "configuredBatchSize");
    this.reducedBatchSize =
        Math.max(1, configuredBatchSize / atLeastOne(reducedDivisor, "divisor"));
    this.failureThreshold = atLeastOne(failureThreshold, "failureThreshold");
    this.windowNanos = positiveNanos(window);
    this.nanoTime = nanoTime;
  }

  /**
   * Whether {@code error} is an aborted batch: a {@link SQLException} with SQLState {@code 57014}
   * (query cancelled: the server's statement timeout or the driver's query timeout), a {@link
   * SQLTimeoutException}, or a {@link TimeoutException}, anywhere in the cause chain (and in a
   * {@link SQLException}'s next-exception chain, where drivers put the real error of a batch).
   */
  public static boolean isAbort(@Nullable Throwable error) {
    return isAbort(error, Collections.newSetFromMap(new IdentityHashMap<>()));
  }

  private static boolean isAbort(@Nullable Throwable error, Set<Throwable> seen) {
    for (Throwable t = error; t != null && seen.add(t); t = t.getCause()) {
      if (t instanceof TimeoutException || t instanceof SQLTimeoutException) {
        return true;
      }
      if (t instanceof SQLException sql
          && ("57014".equals(sql.getSQLState()) || isAbort(sql.getNextException(), seen))) {
        return true;
      }
    }
    return false;
  }

  /** The batch size to use now: the configured size, or the reduced tier once latched. */
  public synchronized int currentBatchSize() {
    return latched ? reducedBatchSize : configuredBatchSize;
  }

  /** A batch committed: the consecutive-abort count starts over. Never unlatches. */
  public synchronized void recordSuccess() {
    recentAborts.clear();
  }

  /**
   * A batch was aborted (see {@link #isAbort(Throwable)}): counts it, and latches the reduced tier
   * when {@code failureThreshold} consecutive aborts fall within the window.
   *
   * @return true when this abort latched the sizer (the transition, for logging it once)
   */
  public synchronized boolean recordAbort() {
    long now = nanoTime.getAsLong();
    while (!recentAborts.isEmpty() && now - recentAborts.getFirst() > windowNanos) {
      recentAborts.removeFirst();
    }
    recentAborts.addLast(now);
    if (recentAborts.size() > failureThreshold) {
      recentAborts.removeFirst();
    }
    if (!latched && recentAborts.size() >= failureThreshold) {
      latched = true;
      return true;
    }
    return false;
  }

  /** True once the sizer moved to the reduced tier; it stays true for the object's life. */
  public synchronized boolean isLatched() {
    return latched;
  }

  /**
   * The aborts of the current run that were inside the window at the latest abort (0 after a
   * success); it saturates at the failure threshold.
   */
  public synchronized int consecutiveAborts() {
    return recentAborts.size();
  }

  /** The sweep's name, the {@code sweep_name} metric label. */
  public String sweepName() {
    return sweepName;
  }

  /** The configured batch size ({@code sweep_batch_size_configured}, O2). */
  public int configuredBatchSize() {
    return configuredBatchSize;
  }

  /** The reduced tier: {@code max(1, configured / divisor)}. */
  public int reducedBatchSize() {
    return reducedBatchSize;
  }

  @Override
  public synchronized String toString() {
    return "SweepBatchSizer{"
        + sweepName
        + ", batch "
        + currentBatchSize()
        + " of "
        + configuredBatchSize
        + (latched ? ", latched" : "")
        + "}";
  }

  private static int atLeastOne(int value, String name) {
    if (value < 1) {
      throw new IllegalArgumentException(name + " must be at least 1, was " + value);
    }
    return value;
  }

  private static long positiveNanos(Duration window) {
    if (window.isNegative() || window.isZero()) {
      throw new IllegalArgumentException("window must be positive, was " + window);
    }
    return window.compareTo(Duration.ofNanos(Long.MAX_VALUE)) >= 0
        ? Long.MAX_VALUE
        : window.toNanos();
  }
}
