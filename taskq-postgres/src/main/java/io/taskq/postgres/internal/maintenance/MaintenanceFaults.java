package io.taskq.postgres.internal.maintenance;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The test-only fault seam of the maintenance loops (Q1, seed 002): a counter of faults to feed
 * into the <em>real</em> batch retry loop.
 *
 * <p>Born disarmed (0); {@link #arm(int)} adds faults; each batch attempt consumes one, if any, and
 * fails with a fabricated transient connection error before touching the database. Counting rather
 * than a flag, so one mechanism reaches both arms: {@code arm(1)} is retry-then-success, {@code
 * arm(retryAttempts)} exhausts the loop. Production code never arms it: a component built without
 * an explicit seam gets its own disarmed instance, so arming one component's seam cannot affect
 * another's.
 */
public final class MaintenanceFaults {
  /** The SQLSTATE of a fabricated fault: connection failure, a transient class. */
  public static final String SQL_STATE = "08006";

  private final AtomicInteger armed = new AtomicInteger();

  private MaintenanceFaults() {}

  /** A seam with no fault armed. */
  public static MaintenanceFaults disarmed() {
    return new MaintenanceFaults();
  }

  /**
   * Arms {@code faults} more faults: only the tests of this package arm it, nothing outside can.
   *
   * @throws IllegalArgumentException when {@code faults} is negative
   */
  void arm(int faults) {
    if (faults < 0) {
      throw new IllegalArgumentException("faults must be at least 0, was " + faults);
    }
    armed.addAndGet(faults);
  }

  /** Faults armed and not yet consumed; 0 after a run means exactly the armed count was used. */
  public int remaining() {
    return armed.get();
  }

  /** Consumes one fault if any is armed; never goes below 0. */
  boolean take() {
    return armed.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0;
  }

  SQLException fabricate(String sweepName) {
    return new SQLTransientConnectionException(
        "fault seam: fabricated transient connection failure before a batch of " + sweepName,
        SQL_STATE);
  }
}
