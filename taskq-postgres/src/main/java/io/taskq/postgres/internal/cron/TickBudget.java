package io.taskq.postgres.internal.cron;

import io.taskq.SchemaName;
import io.taskq.postgres.internal.NamedStatements;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * The one deadline a whole cron tick shares ({@code TASKQ_DISPATCHER_COMMAND_TIMEOUT}, B3): before
 * each statement what is left of it becomes the transaction's {@code statement_timeout} ({@code
 * set_config(..., true)}, the previous value captured and restored at the end), and a spent budget
 * aborts the tick with SQLSTATE 57014 before the statement runs.
 */
final class TickBudget {
  private static final String TIMEOUT_STATE = "57014";

  private final SchemaName schema;
  private final NamedStatements envelope;
  private final Duration deadline;
  private final LongSupplier nanoTime;

  TickBudget(SchemaName schema, Duration deadline, LongSupplier nanoTime) {
    this.schema = schema;
    this.envelope = NamedStatements.load("io/taskq/postgres/sql/sweep_batch.sql", schema);
    this.deadline = deadline;
    this.nanoTime = nanoTime;
  }

  /** The start of a tick, the instant its budget counts from. */
  long start() {
    return nanoTime.getAsLong();
  }

  /**
   * Applies what is left of the budget of the tick begun at {@code start}; returns the value it
   * replaced.
   */
  String apply(Connection c, long start) throws SQLException {
    long leftMs = deadline.toMillis() - (nanoTime.getAsLong() - start) / 1_000_000;
    if (leftMs <= 0) {
      throw new SQLTimeoutException(
          "cron tick of schema " + schema + " ran past its deadline of " + deadline, TIMEOUT_STATE);
    }
    try (PreparedStatement ps = c.prepareStatement(envelope.get("apply_timeout"))) {
      ps.setString(1, Long.toString(leftMs));
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getString(1);
      }
    }
  }

  /** Restores the {@code statement_timeout} {@link #apply} first replaced. */
  void restore(Connection c, String previous) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(envelope.get("restore_timeout"))) {
      ps.setString(1, previous);
      ps.executeQuery().close();
    }
  }
}
