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

  /** The SQLSTATE of the database's error, or {@code null} when it had none. */
  private final @Nullable String sqlState;

  /**
   * A failed database call, described by {@code message}, caused by {@code cause}.
   *
   * @param message what failed
   * @param cause the driver's exception
   */
  public JobStoreException(String message, SQLException cause) {
    super(message + ": " + cause.getMessage() + " (SQLSTATE " + cause.getSQLState() + ")", cause);
    this.sqlState = cause.getSQLState();
  }

  /** {@return the SQLSTATE of the failure, when the driver reported one} */
  public @Nullable String sqlState() {
    return sqlState;
  }
}
