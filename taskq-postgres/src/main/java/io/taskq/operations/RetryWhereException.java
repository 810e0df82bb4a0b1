package io.taskq.operations;

import java.sql.SQLException;
import org.jspecify.annotations.Nullable;

/**
 * A bulk retry stopped on a database error (F1): a batch timed out (SQLSTATE {@code 57014}), the
 * connection failed, or deadlock retries ran out (F3). Every batch committed before it stays
 * committed ({@link #progress()}); running the same retry again continues where it stopped.
 */
public final class RetryWhereException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient RetryWhereProgress progress;

  /** The SQLSTATE of the database's error, or {@code null} when it had none. */
  private final @Nullable String sqlState;

  /**
   * A retry that stopped after {@code progress} on {@code cause}.
   *
   * @param message what failed
   * @param progress what was committed before the failure
   * @param cause the driver's exception
   */
  public RetryWhereException(String message, RetryWhereProgress progress, SQLException cause) {
    super(
        message
            + " after "
            + progress.batches()
            + " committed batches ("
            + progress.retried()
            + " retried); run it again to continue: "
            + cause.getMessage()
            + " (SQLSTATE "
            + cause.getSQLState()
            + ")",
        cause);
    this.progress = progress;
    this.sqlState = cause.getSQLState();
  }

  /** {@return the work committed before the error} */
  public RetryWhereProgress progress() {
    return progress;
  }

  /** {@return the SQLSTATE of the failure} */
  public @Nullable String sqlState() {
    return sqlState;
  }
}
