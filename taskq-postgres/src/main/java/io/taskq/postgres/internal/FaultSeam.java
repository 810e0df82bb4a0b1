package io.taskq.postgres.internal;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A test-only fault injection point inside a real loop (Q1).
 *
 * <p>Born disarmed: {@link #check()} does nothing until a test calls {@link #arm(int)}. Each armed
 * fault is consumed by one check, which throws a fabricated transient {@link SQLException} into the
 * loop exactly where a real database failure would surface, so the loop's own retry and backoff
 * code runs. Counting, so a test can arm enough faults to exhaust a retry budget and then check
 * that exactly the armed number was consumed. Each worker owns its seams, so tests running side by
 * side cannot disturb each other.
 */
public final class FaultSeam {
  private final String name;
  private final AtomicInteger armed = new AtomicInteger();
  private final AtomicInteger fired = new AtomicInteger();

  public FaultSeam(String name) {
    this.name = name;
  }

  /** Adds {@code faults} faults to the next checks. */
  public void arm(int faults) {
    if (faults < 1) {
      throw new IllegalArgumentException("faults must be at least 1, was " + faults);
    }
    armed.addAndGet(faults);
  }

  /**
   * Throws one armed fault, if any is left.
   *
   * @throws SQLException a fabricated transient connection failure (SQLSTATE 08006)
   */
  public void check() throws SQLException {
    if (armed.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0) {
      fired.incrementAndGet();
      throw new SQLTransientConnectionException("injected fault at seam '" + name + "'", "08006");
    }
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
