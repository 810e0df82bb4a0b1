package io.taskq.postgres.internal;

import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import org.jspecify.annotations.Nullable;

/** Sorts database errors into those worth retrying as they are and those that are not. */
public final class SqlErrors {
  private SqlErrors() {}

  /**
   * True for failures that say nothing about the statement itself: a lost or refused connection
   * (class 08), a serialization failure or deadlock (40), the server short of resources (53), a
   * statement timeout or an administrator's intervention (57), and the driver's transient and
   * recoverable exceptions (a pool that timed out handing out a connection, for one). Retrying the
   * same statement later may succeed. Anything else (a data exception, a constraint violation)
   * would fail again the same way.
   */
  public static boolean isTransient(SQLException e) {
    if (e instanceof SQLTransientException || e instanceof SQLRecoverableException) {
      return true;
    }
    String state = e.getSQLState();
    return state == null
        || state.startsWith("08")
        || state.startsWith("40")
        || state.startsWith("53")
        || state.startsWith("57");
  }

  /** The SQLSTATE, or {@code "?????"} when the driver gave none; for log lines. */
  public static String state(@Nullable SQLException e) {
    String state = e == null ? null : e.getSQLState();
    return state == null ? "?????" : state;
  }
}
