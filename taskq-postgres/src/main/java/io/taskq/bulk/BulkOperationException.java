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
  private final @Nullable String sqlState;

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

  /** The work committed before the error. */
  public BulkProgress progress() {
    return progress;
  }

  /** The SQLSTATE of the failure ({@code 57014}: the batch's statement timeout). */
  public @Nullable String sqlState() {
    return sqlState;
  }
}
