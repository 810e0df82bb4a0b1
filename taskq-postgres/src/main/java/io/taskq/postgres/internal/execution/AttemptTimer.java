package io.taskq.postgres.internal.execution;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The per-attempt timeouts of one worker (A6): one daemon thread that fires each running attempt's
 * timeout, if the attempt is still running then. Arming and disarming cost a queue insert and
 * removal (cancelled timers leave the queue at once), so a worker with thousands of short attempts
 * a second keeps a small queue. The thread starts with the first armed timeout.
 */
public final class AttemptTimer {
  private final ScheduledThreadPoolExecutor timer;

  /** A timer whose thread {@code threads} makes. */
  public AttemptTimer(ThreadFactory threads) {
    this.timer = new ScheduledThreadPoolExecutor(1, threads);
    timer.setRemoveOnCancelPolicy(true);
    timer.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
  }

  /** Runs {@code onTimeout} after {@code millis}, unless cancelled first; null after shutdown. */
  @Nullable ScheduledFuture<?> arm(long millis, Runnable onTimeout) {
    if (timer.isShutdown()) {
      return null;
    }
    try {
      return timer.schedule(onTimeout, millis, TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      return null; // shut down meanwhile: the worker is stopping, shutdown handles the attempt
    }
  }

  /** Stops the thread; armed timeouts never fire (shutdown deals with the attempts). */
  public void shutdown() {
    timer.shutdownNow();
  }
}
