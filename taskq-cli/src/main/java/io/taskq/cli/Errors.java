package io.taskq.cli;

import java.net.ConnectException;
import java.sql.SQLException;
import org.jspecify.annotations.Nullable;

/** Turns what a command threw into one clear line and a documented exit code. */
final class Errors {
  private Errors() {}

  static CliException map(Throwable t, @Nullable String databaseUrl, String schema) {
    if (t instanceof CliException cli) {
      return cli;
    }
    if (t instanceof IllegalArgumentException) {
      return new CliException(ExitCodes.USAGE, String.valueOf(t.getMessage()), t);
    }
    String state = sqlState(t);
    if (unreachable(t, state)) {
      return unreachableError(t, databaseUrl);
    }
    if ("42P01".equals(state) || "3F000".equals(state)) {
      return schemaNotCurrent(t, schema);
    }
    return new CliException(ExitCodes.FAILED, String.valueOf(t.getMessage()), t);
  }

  private static CliException unreachableError(Throwable t, @Nullable String databaseUrl) {
    return new CliException(
        ExitCodes.UNREACHABLE,
        "cannot reach the database at TASKQ_DATABASE_URL="
            + redact(databaseUrl)
            + ": "
            + rootMessage(t),
        t);
  }

  private static CliException schemaNotCurrent(Throwable t, String schema) {
    return new CliException(
        ExitCodes.SCHEMA_NOT_CURRENT,
        "schema '"
            + schema
            + "' has no TaskQ tables, or is behind this TaskQ: run `taskq migrate` ("
            + rootMessage(t)
            + ")",
        t);
  }

  private static boolean unreachable(Throwable t, @Nullable String state) {
    if (state != null && state.startsWith("08")) {
      return true;
    }
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof ConnectException
          || c.getClass().getSimpleName().equals("PoolInitializationException")) {
        return true;
      }
    }
    return false;
  }

  private static @Nullable String sqlState(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof SQLException sql && sql.getSQLState() != null) {
        return sql.getSQLState();
      }
    }
    return null;
  }

  private static String rootMessage(Throwable t) {
    Throwable root = t;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return String.valueOf(root.getMessage());
  }

  /** The URL without its password. */
  static String redact(@Nullable String url) {
    if (url == null || url.isBlank()) {
      return "(unset)";
    }
    return url.replaceAll("(?i)(password=)[^&]*", "$1***")
        .replaceAll("//([^/@:]+):[^/@]*@", "//$1:***@");
  }
}
