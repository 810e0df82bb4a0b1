package io.taskq.postgres.internal.sweep;

import java.sql.SQLException;

/**
 * A batch's fence could not be taken, so the batch changed nothing: the process is no longer the
 * proven leader (D8), or a daily sweep's own lock is held by another process (M1).
 *
 * <p>Not an aborted batch (it does not count against the breaker) and not worth retrying at once:
 * the leader loop reacts by re-checking leadership. SQLSTATE {@value #SQL_STATE} (TaskQ's own
 * class, never raised by the server).
 */
public final class FenceRefusedException extends SQLException {
  /** The SQLSTATE of this exception. */
  public static final String SQL_STATE = "TQ001";

  private static final long serialVersionUID = 1L;

  private final boolean leadershipLost;

  private FenceRefusedException(String message, boolean leadershipLost) {
    super(message, SQL_STATE);
    this.leadershipLost = leadershipLost;
  }

  /** The leader fence refused: this process cannot prove it still leads the schema (D8). */
  public static FenceRefusedException leadershipLost(String message) {
    return new FenceRefusedException(message, true);
  }

  /** A daily sweep's own lock is held by another process now; try again on a later tick. */
  public static FenceRefusedException lockBusy(String message) {
    return new FenceRefusedException(message, false);
  }

  /** True when leadership could not be proven; false when only a sweep's own lock was busy. */
  public boolean isLeadershipLost() {
    return leadershipLost;
  }
}
