package io.taskq.postgres.testing;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import javax.sql.DataSource;

/** Small plain-JDBC reads and writes the tests use to look at the database directly. */
public final class Db {
  private final DataSource ds;

  public Db(DataSource ds) {
    this.ds = ds;
  }

  /** Runs one statement with bind values. */
  public int update(String sql, Object... args) {
    try (Connection c = ds.getConnection();
        PreparedStatement ps = bind(c.prepareStatement(sql), args)) {
      return ps.executeUpdate();
    } catch (SQLException e) {
      throw new IllegalStateException(sql, e);
    }
  }

  /** Runs one statement without binds (DDL). */
  public void execute(String sql) {
    try (Connection c = ds.getConnection();
        Statement s = c.createStatement()) {
      s.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException(sql, e);
    }
  }

  /** The single long of a one-row, one-column query. */
  public long queryLong(String sql, Object... args) {
    List<Object> column = queryColumn(sql, args);
    if (column.size() != 1) {
      throw new IllegalStateException(sql + " returned " + column.size() + " rows");
    }
    return ((Number) column.get(0)).longValue();
  }

  /** The first column of every row. */
  public List<Object> queryColumn(String sql, Object... args) {
    try (Connection c = ds.getConnection();
        PreparedStatement ps = bind(c.prepareStatement(sql), args);
        ResultSet rs = ps.executeQuery()) {
      List<Object> out = new ArrayList<>();
      while (rs.next()) {
        out.add(rs.getObject(1));
      }
      return out;
    } catch (SQLException e) {
      throw new IllegalStateException(sql, e);
    }
  }

  /** The tables of {@code schema}. */
  public List<Object> tables(String schema) {
    return queryColumn(
        "SELECT table_name::text FROM information_schema.tables WHERE table_schema = ?"
            + " ORDER BY 1",
        schema);
  }

  /** Drops {@code schema} and everything in it. */
  public void dropSchema(String schema) {
    execute("DROP SCHEMA IF EXISTS \"" + schema + "\" CASCADE");
  }

  /** A schema name no other test uses: {@code base} plus a random suffix. */
  public static String uniqueName(String base) {
    return base + "_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 28);
  }

  private static PreparedStatement bind(PreparedStatement ps, Object... args) throws SQLException {
    for (int i = 0; i < args.length; i++) {
      ps.setObject(i + 1, args[i]);
    }
    return ps;
  }
}
