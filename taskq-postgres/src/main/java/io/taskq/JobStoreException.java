package io.taskq;

import java.sql.SQLException;
import org.jspecify.annotations.Nullable;

/**
 * A database call of the store failed. The cause is the driver's {@link SQLException}; {@link
 * #sqlState()} repeats its SQLSTATE (for example {@code 57014} when the statement timeout ended a
 * statement, {@code 40P01} for a deadlock). When the call ran on the caller's connection inside the
 * caller's transaction, that transaction is aborted and must be rolled back by the caller.
 */
public final class JobStoreException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final @Nullable String sqlState;

  public JobStoreException(String message, SQLException cause) {
    super(message + ": " + cause.getMessage() + " (SQLSTATE " + cause.getSQLState() + ")", cause);
    this.sqlState = cause.getSQLState();
  }

  /** The SQLSTATE of the failure, when the driver reported one. */
  public @Nullable String sqlState() {
    return sqlState;
  }
}
