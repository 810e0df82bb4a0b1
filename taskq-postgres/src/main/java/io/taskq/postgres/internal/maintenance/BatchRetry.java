package io.taskq.postgres.internal.maintenance;

import io.taskq.postgres.internal.sweep.FenceRefusedException;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.time.Duration;
import java.util.Set;
import java.util.function.DoubleSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The maintenance loops' retry of one batch on transient database errors (Q1, Q2).
 *
 * <p>Up to {@code attempts} attempts; between them a backoff that starts at {@code firstBackoff},
 * doubles each time and loses up to a quarter to jitter. Each attempt first consults the {@link
 * MaintenanceFaults} seam, so tests feed faults into this very loop. Outcomes:
 *
 * <ul>
 *   <li>success returns the attempt's result;
 *   <li>a {@link FenceRefusedException} passes through at once (not a database hiccup: leadership
 *       must be re-checked);
 *   <li>a non-transient error (SQLSTATE class 0A, 22 or 42: the statement itself is wrong), a pool
 *       that gave no connection ({@link WatchedPool.NoConnectionException}: the pool has already
 *       waited its own connection timeout; the loop counts it towards a {@link PoolOutage}) and an
 *       exhausted budget end in the typed {@link SweepFailedException}, which the loop survives.
 * </ul>
 *
 * Aborted batches (SQLSTATE 57014) never get here: the runner turns them into an aborted outcome,
 * retried by the next call, not by this loop (B2).
 */
final class BatchRetry {
  private static final Logger LOG = LoggerFactory.getLogger(BatchRetry.class);
  private static final Set<String> PERMANENT_CLASSES = Set.of("0A", "22", "42");

  private final int attempts;
  private final Duration firstBackoff;
  private final MaintenanceFaults faults;
  private final Sleeper sleeper;
  private final DoubleSupplier random;

  BatchRetry(
      int attempts,
      Duration firstBackoff,
      MaintenanceFaults faults,
      Sleeper sleeper,
      DoubleSupplier random) {
    this.attempts = attempts;
    this.firstBackoff = firstBackoff;
    this.faults = faults;
    this.sleeper = sleeper;
    this.random = random;
  }

  /** One unit of work that may fail with a database error. */
  @FunctionalInterface
  interface Attempt<T> {
    T run() throws SQLException;
  }

  <T> T call(String sweepName, Attempt<T> attempt)
      throws FenceRefusedException, SweepFailedException {
    for (int n = 1; ; n++) {
      try {
        if (faults.take()) {
          throw faults.fabricate(sweepName);
        }
        return attempt.run();
      } catch (FenceRefusedException e) {
        throw e;
      } catch (SQLException e) {
        backOffOrFail(sweepName, n, e);
      }
    }
  }

  /**
   * After attempt {@code n} failed with {@code e}: waits out the backoff before the next attempt,
   * or fails the batch when {@code e} is not transient or the attempts are used up.
   */
  private void backOffOrFail(String sweepName, int n, SQLException e) throws SweepFailedException {
    if (!isTransient(e) || e instanceof WatchedPool.NoConnectionException) {
      throw new SweepFailedException(sweepName, n, false, e);
    }
    if (n >= attempts) {
      throw new SweepFailedException(sweepName, n, true, e);
    }
    Duration backoff = backoff(n);
    LOG.info(
        "sweep {} batch attempt {} of {} failed ({}, SQLSTATE {}); retrying in {} ms",
        sweepName,
        n,
        attempts,
        e.getMessage(),
        e.getSQLState(),
        backoff.toMillis());
    pause(sweepName, n, backoff, e);
  }

  private void pause(String sweepName, int n, Duration backoff, SQLException cause)
      throws SweepFailedException {
    try {
      sleeper.sleep(backoff);
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      cause.addSuppressed(interrupted);
      throw new SweepFailedException(sweepName, n, false, cause);
    }
  }

  /** {@code firstBackoff * 2^(n-1)}, minus up to 25 % jitter. */
  Duration backoff(int failedAttempt) {
    long base = firstBackoff.toMillis() << Math.min(failedAttempt - 1, 20);
    return Duration.ofMillis(Math.max(1, (long) (base * (1 - 0.25 * random.getAsDouble()))));
  }

  static boolean isTransient(SQLException e) {
    if (e instanceof SQLTransientException || e instanceof SQLRecoverableException) {
      return true;
    }
    String state = e.getSQLState();
    return state == null
        || state.length() < 2
        || !PERMANENT_CLASSES.contains(state.substring(0, 2));
  }
}
