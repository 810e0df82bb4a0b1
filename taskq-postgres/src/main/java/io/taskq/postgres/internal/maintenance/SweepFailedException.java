package io.taskq.postgres.internal.maintenance;

import java.sql.SQLException;

/**
 * A sweep batch failed for good on this tick: its transient errors exhausted the retry budget, or
 * its error was not transient. The loop logs it and moves on to the next sweep; the next tick tries
 * again (Q2: the runner survives exhaustion). The last error is the cause. A batch whose pool gave
 * no connection ({@link #isNoConnection()}) fails at once, unretried: the pool already waited its
 * own connection timeout, and the loop counts it towards a pool outage ({@link PoolOutage}).
 */
public final class SweepFailedException extends Exception {
  private static final long serialVersionUID = 1L;

  private final String sweepName;
  private final int attempts;
  private final boolean exhausted;

  SweepFailedException(String sweepName, int attempts, boolean exhausted, SQLException cause) {
    super(
        what(sweepName, attempts, exhausted, cause)
            + ": "
            + cause.getMessage()
            + " (SQLSTATE "
            + cause.getSQLState()
            + ")",
        cause);
    this.sweepName = sweepName;
    this.attempts = attempts;
    this.exhausted = exhausted;
  }

  private static String what(
      String sweepName, int attempts, boolean exhausted, SQLException cause) {
    if (cause instanceof WatchedPool.NoConnectionException) {
      return "sweep " + sweepName + " got no database connection on attempt " + attempts;
    }
    return exhausted
        ? "sweep " + sweepName + " gave up after " + attempts + " attempts of one batch"
        : "sweep " + sweepName + " failed with a non-transient error on attempt " + attempts;
  }

  /** The sweep whose batch failed. */
  public String sweepName() {
    return sweepName;
  }

  /** Attempts made. */
  public int attempts() {
    return attempts;
  }

  /** True when the batch's pool gave no connection: the batch never reached the database. */
  public boolean isNoConnection() {
    return getCause() instanceof WatchedPool.NoConnectionException;
  }

  /** True when the retry budget ran out on transient errors. */
  public boolean isExhausted() {
    return exhausted;
  }
}
