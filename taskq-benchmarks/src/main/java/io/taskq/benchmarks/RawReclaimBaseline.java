package io.taskq.benchmarks;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * Figure (e)'s yardstick: what raw SQL pays to give back a backlog of expired leases, beside S1.
 *
 * <p>Its own table ({@code raw_leases}: id, status, payload, owner, lease expiry) with a partial
 * index on the expiry of running rows, filled with the same number of expired running rows as
 * TaskQ's backlog; then one connection loops {@code UPDATE ... SET status = 'pending' ... WHERE id
 * IN (SELECT id ... WHERE status = 'running' AND lease_expires_at < now() ORDER BY lease_expires_at
 * LIMIT 100 FOR UPDATE SKIP LOCKED)}, each batch its own transaction, until a batch finds nothing.
 * It writes no history: S1 also writes a {@code job_attempts} and a {@code job_events} row per job
 * (the crashed attempt and the reclaim feed), bumps the attempt and applies the retry policy, so
 * the yardstick is the floor of a drain, not an equal.
 */
final class RawReclaimBaseline {
  private final DataSource dataSource;
  private final String table;

  RawReclaimBaseline(DataSource dataSource, String schemaQuoted) {
    this.dataSource = dataSource;
    this.table = schemaQuoted + ".raw_leases";
  }

  /** What one raw drain measured: rows given back, and each batch's duration. */
  record Drain(int rows, long nanos, List<Long> batchNanos) {
    double rowsPerSecond() {
      return rows / (nanos / 1e9);
    }

    double millisPerRow() {
      return nanos / 1e6 / rows;
    }

    /** The batches' own time per row (without the last, empty one). */
    double batchMillisPerRow() {
      return batchNanos.stream().mapToLong(Long::longValue).sum() / 1e6 / rows;
    }
  }

  /** A fresh table holding {@code rows} running rows whose leases expired a minute ago. */
  void insertBacklog(int rows) throws SQLException {
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement()) {
      s.execute("DROP TABLE IF EXISTS " + table);
      s.execute(
          "CREATE TABLE "
              + table
              + " (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, status text NOT NULL,"
              + " payload jsonb NOT NULL, locked_by text, lease_expires_at timestamptz)");
      s.execute("CREATE INDEX ON " + table + " (lease_expires_at) WHERE status = 'running'");
      s.execute(
          "INSERT INTO "
              + table
              + " (status, payload, locked_by, lease_expires_at) SELECT 'running',"
              + " jsonb_build_object('n', g), 'bench-owner',"
              + " now() - interval '1 minute' - g * interval '1 microsecond'"
              + " FROM generate_series(1, "
              + rows
              + ") g");
      s.execute("VACUUM ANALYZE " + table);
    }
  }

  /** Gives every expired row back in batches of {@code batchSize}, each committed. */
  Drain drain(int expectedRows, int batchSize) throws SQLException {
    String reclaim =
        "UPDATE "
            + table
            + " SET status = 'pending', locked_by = NULL, lease_expires_at = NULL"
            + " WHERE id IN (SELECT id FROM "
            + table
            + " WHERE status = 'running' AND lease_expires_at < now()"
            + " ORDER BY lease_expires_at LIMIT "
            + batchSize
            + " FOR UPDATE SKIP LOCKED)";
    List<Long> batches = new ArrayList<>();
    int rows = 0;
    long start = System.nanoTime();
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(reclaim)) {
      c.setAutoCommit(true);
      while (true) {
        long batchStart = System.nanoTime();
        int updated = ps.executeUpdate();
        if (updated == 0) {
          break;
        }
        batches.add(System.nanoTime() - batchStart);
        rows += updated;
      }
    }
    long nanos = System.nanoTime() - start;
    if (rows != expectedRows) {
      throw new IllegalStateException(
          "the raw drain gave back " + rows + " rows, expected " + expectedRows);
    }
    return new Drain(rows, nanos, List.copyOf(batches));
  }
}
