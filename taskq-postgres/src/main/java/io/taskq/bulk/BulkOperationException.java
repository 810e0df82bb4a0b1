package io.taskq.bulk;

import java.sql.SQLException;
import org.jspecify.annotations.Nullable;

/**
 * A bulk operation stopped on a database error (F1): a batch timed out (SQLSTATE {@code 57014}),
 * the connection failed, or deadlock retries ran out ({@link DeadlockRetriesExhaustedException}).
 * No breaker, no hidden retry: the error reaches the caller. Every batch committed before it stays
 * committed ({@link #progress()}); running the same operation again continues where it stopped.
 */
public class BulkOperationException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient BulkProgress progress;

  /** The SQLSTATE of the database's error, or {@code null} when it had none. */
  private final @Nullable String sqlState;

  /**
   * A bulk operation stopped after {@code progress}, on {@code cause}.
   *
   * @param message what failed
   * @param progress what was committed before the failure
   * @param cause the driver's exception
   */
  public BulkOperationException(String message, BulkProgress progress, SQLException cause) {
    super(
        message
            + " after "
            + progress.batches()
            + " committed batches ("
            + progress.cancelled()
            + " cancelled); run it again to continue: "
            + cause.getMessage()
            + " (SQLSTATE "
            + cause.getSQLState()
            + ")",
        cause);
    this.progress = progress;
    this.sqlState = cause.getSQLState();
  }

  /** {@return the work committed before the error} */
  public BulkProgress progress() {
    return progress;
  }

  /** {@return the SQLSTATE of the failure ({@code 57014}: the batch's statement timeout)} */
  public @Nullable String sqlState() {
    return sqlState;
  }
}
