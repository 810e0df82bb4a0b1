package io.taskq.postgres.internal;

import java.sql.SQLException;
import java.sql.SQLTransactionRollbackException;
import java.sql.SQLTransientConnectionException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A test-only fault injection point inside a real loop (Q1).
 *
 * <p>Born disarmed: {@link #check()} does nothing until a test arms it ({@link TestHooks#arm}).
 * Each armed fault is consumed by one check, which throws a fabricated transient {@link
 * SQLException} into the loop exactly where a real database failure would surface, so the loop's
 * own retry and backoff code runs. Counting, so a test can arm enough faults to exhaust a retry
 * budget and then check that exactly the armed number was consumed. Each worker owns its seams, so
 * tests running side by side cannot disturb each other.
 */
public final class FaultSeam {
  /** The SQLSTATE of a deadlock, for {@link #FaultSeam(String, String)}. */
  public static final String DEADLOCK = "40P01";

  private final String name;
  private final String sqlState;
  private final AtomicInteger armed = new AtomicInteger();
  private final AtomicInteger fired = new AtomicInteger();

  /** A seam that fabricates a transient connection failure (SQLSTATE 08006). */
  public FaultSeam(String name) {
    this(name, "08006");
  }

  /**
   * A seam that fabricates a failure with {@code sqlState}: a {@link
   * SQLTransactionRollbackException} for class 40 (a deadlock is {@value #DEADLOCK}), else a
   * transient connection failure carrying the state.
   */
  public FaultSeam(String name, String sqlState) {
    this.name = name;
    this.sqlState = sqlState;
  }

  /** Adds {@code faults} faults to the next checks; tests arm through {@link TestHooks#arm}. */
  void arm(int faults) {
    if (faults < 1) {
      throw new IllegalArgumentException("faults must be at least 1, was " + faults);
    }
    armed.addAndGet(faults);
  }

  /**
   * Throws one armed fault, if any is left.
   *
   * @throws SQLException a fabricated failure (SQLSTATE 08006 unless the seam names another)
   */
  public void check() throws SQLException {
    if (armed.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0) {
      fired.incrementAndGet();
      String message = "injected fault at seam '" + name + "'";
      if (sqlState.startsWith("40")) {
        throw new SQLTransactionRollbackException(message, sqlState);
      }
      throw new SQLTransientConnectionException(message, sqlState);
    }
  }

  /** Drops the faults not yet thrown, so the next checks pass; returns how many were dropped. */
  public int disarm() {
    return armed.getAndSet(0);
  }

  /** Faults armed and not yet consumed. */
  public int remaining() {
    return armed.get();
  }

  /** Faults thrown so far. */
  public int fired() {
    return fired.get();
  }
}
