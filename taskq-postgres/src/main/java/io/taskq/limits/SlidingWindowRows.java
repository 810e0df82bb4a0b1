package io.taskq.limits;

import io.taskq.postgres.internal.NamedStatements;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * A {@link PostgresSlidingWindow}'s log rows in {@code rate_limit_buckets}: one row per name, its
 * admitted instants as a {@code bigint[]} of microseconds, oldest first. Read and written inside
 * the decision's transaction, under the name's advisory lock.
 */
final class SlidingWindowRows {
  private final String readSql;
  private final String writeSql;
  private final boolean keyed;

  /** The rows of {@code ratelimit.sql}'s statements; written marked keyed when {@code keyed}. */
  SlidingWindowRows(NamedStatements statements, boolean keyed) {
    this.readSql = statements.get("read");
    this.writeSql = statements.get("write");
    this.keyed = keyed;
  }

  /** {@return the log of {@code name}, oldest first; empty when it has no row} */
  Deque<Long> read(Connection c, String name) throws SQLException {
    Deque<Long> log = new ArrayDeque<>();
    try (PreparedStatement s = c.prepareStatement(readSql)) {
      s.setString(1, name);
      try (ResultSet rs = s.executeQuery()) {
        if (rs.next()) {
          Array array = rs.getArray("log_us");
          for (Object instant : (Object[]) array.getArray()) {
            log.addLast(((Number) instant).longValue());
          }
          array.free();
        }
      }
    }
    return log;
  }

  /** Writes {@code log} back as the row of {@code name}, used at {@code now}. */
  void write(Connection c, String name, Deque<Long> log, long now) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(writeSql)) {
      s.setString(1, name);
      s.setBoolean(2, keyed);
      s.setArray(3, c.createArrayOf("bigint", log.toArray(Long[]::new)));
      s.setLong(4, now);
      s.executeUpdate();
    }
  }
}
