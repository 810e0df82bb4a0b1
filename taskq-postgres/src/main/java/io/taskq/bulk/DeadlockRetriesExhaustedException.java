package io.taskq.bulk;

import java.sql.SQLException;

/**
 * One batch of a bulk operation deadlocked (SQLSTATE {@code 40P01}) on every one of its attempts
 * (F3). Every batch committed before it stays; run the operation again to continue.
 */
public final class DeadlockRetriesExhaustedException extends BulkOperationException {
  private static final long serialVersionUID = 1L;

  /** The attempts made, every one ended by a deadlock. */
  private final int attempts;

  /**
   * A bulk batch that deadlocked on every one of its {@code attempts} attempts.
   *
   * @param message what failed
   * @param attempts the attempts made
   * @param progress what was committed before
   * @param cause the last deadlock's exception
   */
  public DeadlockRetriesExhaustedException(
      String message, int attempts, BulkProgress progress, SQLException cause) {
    super(message + ": a batch deadlocked on all " + attempts + " attempts", progress, cause);
    this.attempts = attempts;
  }

  /** {@return the attempts the batch made} */
  public int attempts() {
    return attempts;
  }
}
