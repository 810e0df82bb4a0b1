package io.taskq.postgres.internal.startup;

import java.net.URI;
import java.sql.SQLException;
import org.jspecify.annotations.Nullable;

/**
 * The message for a pool TaskQ could not open because the database at {@code TASKQ_DATABASE_URL}
 * does not answer or refuses the login (P3): it names the setting and where it points (database,
 * host and port; never the user-info or parameters, where a password may hide), and keeps the
 * driver's error as the cause.
 */
public final class UnreachableDatabase {
  private UnreachableDatabase() {}

  /** An exception for a failed first connection of TaskQ's own pool. */
  public static IllegalStateException of(String url, Throwable failure) {
    SQLException sql = sqlCause(failure);
    String why = sql == null ? failure.toString() : sql.getMessage() + sqlState(sql);
    return new IllegalStateException(
        "cannot connect to the database in TASKQ_DATABASE_URL ("
            + where(url)
            + "): "
            + why
            + ". Check that PostgreSQL runs there and accepts connections, and that"
            + " TASKQ_DATABASE_URL, TASKQ_DATABASE_USER and TASKQ_DATABASE_PASSWORD are right",
        failure);
  }

  /** {@code database test on 127.0.0.1:5432}, or a placeholder when the URL does not parse. */
  static String where(String jdbcUrl) {
    try {
      URI uri = URI.create(jdbcUrl.replaceFirst("^jdbc:", ""));
      String host = uri.getHost() == null ? "localhost" : uri.getHost();
      String server = uri.getPort() < 0 ? host : host + ":" + uri.getPort();
      String path = uri.getPath() == null ? "" : uri.getPath().replaceFirst("^/", "");
      return "database " + (path.isEmpty() ? "(the user's default)" : path) + " on " + server;
    } catch (IllegalArgumentException e) {
      return "a URL that does not parse";
    }
  }

  private static String sqlState(SQLException e) {
    return e.getSQLState() == null ? "" : " (SQLSTATE " + e.getSQLState() + ")";
  }

  private static @Nullable SQLException sqlCause(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof SQLException sql) {
        return sql;
      }
    }
    return null;
  }
}
