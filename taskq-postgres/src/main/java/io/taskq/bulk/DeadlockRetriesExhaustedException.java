package io.taskq.bulk;

import java.sql.SQLException;

/**
 * One batch of a bulk operation deadlocked (SQLSTATE {@code 40P01}) on every one of its attempts
 * (F3). Every batch committed before it stays; run the operation again to continue.
 */
public final class DeadlockRetriesExhaustedException extends BulkOperationException {
  private static final long serialVersionUID = 1L;

  private final int attempts;

  public DeadlockRetriesExhaustedException(
      String message, int attempts, BulkProgress progress, SQLException cause) {
    super(message + ": a batch deadlocked on all " + attempts + " attempts", progress, cause);
    this.attempts = attempts;
  }

  /** The attempts the batch made. */
  public int attempts() {
    return attempts;
  }
}
