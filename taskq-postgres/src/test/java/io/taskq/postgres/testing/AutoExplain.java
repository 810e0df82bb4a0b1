package io.taskq.postgres.testing;

import java.sql.SQLException;
import java.sql.Statement;

/**
 * Turns on {@code auto_explain} for the rest of the statement's transaction: every statement, the
 * ones inside functions too, is run under {@code EXPLAIN (ANALYZE, BUFFERS)} and its plan comes
 * back as a log message that PostgreSQL sends to this session only (read them with {@code
 * getWarnings()}). For plan tests of what runs inside PL/pgSQL functions such as {@code
 * claim_pick}.
 */
public final class AutoExplain {
  private AutoExplain() {}

  /** Loads auto_explain and sets it, with {@code SET LOCAL}, inside the open transaction. */
  public static void enable(Statement s) throws SQLException {
    s.execute("LOAD 'auto_explain'");
    s.execute("SET LOCAL auto_explain.log_min_duration = 0");
    s.execute("SET LOCAL auto_explain.log_nested_statements = on");
    s.execute("SET LOCAL auto_explain.log_analyze = on");
    s.execute("SET LOCAL auto_explain.log_buffers = on");
    s.execute("SET LOCAL client_min_messages = log");
  }
}
