package io.taskq.postgres.internal;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bounds a graceful shutdown on a database that does not answer (R1).
 *
 * <p>Each step of {@code TaskQ.close()} is bounded on its own (statement timeouts, the socket
 * timeout of D10), but against a frozen server the steps would wait out their bounds one after the
 * other. Armed at the start of close, the deadline runs {@code onExpiry} once the close has taken
 * longer than its budget: it aborts the connections still in use, so every step still on the wire
 * fails at once and the close finishes. A close that ends in time disarms it and nothing happens.
 */
public final class CloseDeadline implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(CloseDeadline.class);

  private final AtomicBoolean done = new AtomicBoolean();

  private CloseDeadline() {}

  /**
   * Arms a deadline.
   *
   * @param budget how long the close may take before {@code onExpiry} runs
   * @param onExpiry aborts what is still on the wire; runs at most once, on a daemon thread
   * @return the armed deadline; close it when the close is over
   */
  public static CloseDeadline arm(Duration budget, Runnable onExpiry) {
    CloseDeadline deadline = new CloseDeadline();
    CompletableFuture.delayedExecutor(budget.toMillis(), TimeUnit.MILLISECONDS)
        .execute(() -> deadline.expire(budget, onExpiry));
    return deadline;
  }

  private void expire(Duration budget, Runnable onExpiry) {
    if (done.compareAndSet(false, true)) {
      LOG.warn(
          "close() is still waiting on the database after {}: aborting the connections in use",
          budget);
      try {
        onExpiry.run();
      } catch (RuntimeException e) {
        LOG.warn("aborting the connections in use failed", e);
      }
    }
  }

  /** Disarms the deadline: the close finished in time. */
  @Override
  public void close() {
    done.set(true);
  }
}
