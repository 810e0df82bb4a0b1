package io.taskq.postgres.internal;

import io.taskq.spi.JobListener;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts worker writes that the lease fence turned away (D9).
 *
 * <p>Every write a worker makes about an attempt (complete, fail, release) matches the attempt's
 * lease token and {@code status = 'running'}. When the worker was paused past its lease and the job
 * was reclaimed, the write affects no row: nothing changes, and the worker reports it here. The
 * first report logs a WARN (it means leases are too short for this deployment, or the worker was
 * frozen); later ones log at DEBUG so a burst cannot flood the log, and the counter keeps the
 * total. Each report also reaches the job listener as {@code writeFenced()}, the named meter {@code
 * taskq.jobs.fenced_writes} of the metrics binding (R6).
 */
public final class FencedWrites {
  private static final Logger LOG = LoggerFactory.getLogger(FencedWrites.class);

  private final AtomicLong count = new AtomicLong();
  private final AtomicBoolean warned = new AtomicBoolean();
  private final JobListener listener;

  /** Counts without telling a listener. */
  public FencedWrites() {
    this(JobListener.NONE);
  }

  /**
   * Counts and tells {@code listener} of each fenced write ({@code taskq.jobs.fenced_writes}, R6).
   *
   * @param listener a guarded listener ({@code GuardedJobListener}): it must not throw
   */
  public FencedWrites(JobListener listener) {
    this.listener = listener;
  }

  /**
   * Records that the write {@code what} for job {@code jobId} under {@code token} changed nothing.
   */
  public void report(String what, long jobId, long token) {
    count.incrementAndGet();
    listener.writeFenced();
    if (warned.compareAndSet(false, true)) {
      LOG.warn(
          "{} of job {} (lease token {}) changed nothing: the lease was taken over, so this"
              + " attempt's outcome is discarded; further such writes are logged at DEBUG",
          what,
          jobId,
          token);
    } else {
      LOG.debug("{} of job {} (lease token {}) fenced off", what, jobId, token);
    }
  }

  /** Writes fenced off so far. */
  public long count() {
    return count.get();
  }
}
