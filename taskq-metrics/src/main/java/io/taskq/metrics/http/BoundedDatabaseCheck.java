package io.taskq.metrics.http;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * A {@link DatabaseCheck} that answers within a wall-clock budget whatever the database does (R1).
 *
 * <p>A statement timeout does not bound a check against a frozen server: the driver's cancel
 * request needs a new connection the server never accepts, and a pool waits for a connection nobody
 * returns. So the check runs on a thread of its own and the probe waits for it at most the budget.
 * At most one check is in flight: while one is still stuck, a probe fails at once instead of piling
 * another thread onto the dead server.
 */
final class BoundedDatabaseCheck implements DatabaseCheck {
  private final DatabaseCheck check;
  private final Duration budget;
  private final ExecutorService runner;
  private final AtomicReference<@Nullable CompletableFuture<Void>> inFlight =
      new AtomicReference<>();

  BoundedDatabaseCheck(DatabaseCheck check, Duration budget) {
    this.check = Objects.requireNonNull(check, "check");
    this.budget = Objects.requireNonNull(budget, "budget");
    this.runner =
        Executors.newCachedThreadPool(
            task -> {
              Thread t = new Thread(task, "taskq-ready-database-check");
              t.setDaemon(true);
              return t;
            });
  }

  @Override
  public void ping() throws Exception {
    CompletableFuture<Void> running = inFlight.get();
    if (running != null && !running.isDone()) {
      throw new TimeoutException("the previous database check has not answered yet");
    }
    CompletableFuture<Void> started = CompletableFuture.runAsync(this::runCheck, runner);
    inFlight.set(started);
    try {
      started.get(budget.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      throw cause instanceof Exception failed ? failed : e;
    }
  }

  private void runCheck() {
    try {
      check.ping();
    } catch (RuntimeException e) {
      throw e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (Exception e) {
      throw new CheckFailed(e);
    }
  }

  /** Carries a checked failure of the check out of the runner thread. */
  private static final class CheckFailed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    CheckFailed(Exception cause) {
      super(cause.getClass().getName(), cause);
    }
  }
}
