package io.taskq.examples;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Locale;

/** Reads the demo's progress and results from the database, the only source of truth. */
final class DemoReport {
  private final Connection connection;
  private final String schema;

  DemoReport(Connection connection, String quotedSchema) {
    this.connection = connection;
    this.schema = quotedSchema;
  }

  /** Counts by status for the jobs with ids in [fromId, toId]. */
  record Counts(long finished, long succeeded, long failed, long running, long retries) {}

  Counts counts(long fromId, long toId) throws SQLException {
    String sql =
        "SELECT count(*) FILTER (WHERE status IN ('succeeded','failed','crashed','cancelled')),"
            + " count(*) FILTER (WHERE status = 'succeeded'),"
            + " count(*) FILTER (WHERE status IN ('failed','crashed')),"
            + " count(*) FILTER (WHERE status = 'running'),"
            + " (SELECT count(*) FROM "
            + schema
            + ".job_attempts a WHERE a.outcome = 'failed' AND a.job_id BETWEEN ? AND ?)"
            + " FROM "
            + schema
            + ".jobs WHERE id BETWEEN ? AND ?";
    try (PreparedStatement ps = connection.prepareStatement(sql)) {
      ps.setLong(1, fromId);
      ps.setLong(2, toId);
      ps.setLong(3, fromId);
      ps.setLong(4, toId);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return new Counts(
            rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5));
      }
    }
  }

  /** Pickup latency (first attempt start minus enqueue) percentiles in ms for ids in a range. */
  double[] pickupMillis(long fromId, long toId) throws SQLException {
    String sql =
        "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY ms), percentile_cont(0.99) WITHIN"
            + " GROUP (ORDER BY ms) FROM (SELECT extract(epoch FROM (a.started_at - j.created_at))"
            + " * 1000 AS ms FROM "
            + schema
            + ".jobs j JOIN "
            + schema
            + ".job_attempts a ON a.job_id = j.id AND a.attempt = 1 WHERE j.id BETWEEN ? AND ?) t";
    try (PreparedStatement ps = connection.prepareStatement(sql)) {
      ps.setLong(1, fromId);
      ps.setLong(2, toId);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return new double[] {rs.getDouble(1), rs.getDouble(2)};
      }
    }
  }

  /** A 40-character progress bar with counts, e.g. {@code [#####.....] 1200/5000}. */
  static String bar(Counts counts, long total) {
    int width = 40;
    int filled = (int) (width * counts.finished() / Math.max(1, total));
    return String.format(
        Locale.ROOT,
        "[%s%s] %5d/%d done  %4d running  %4d retries  %3d failed",
        "#".repeat(filled),
        ".".repeat(width - filled),
        counts.finished(),
        total,
        counts.running(),
        counts.retries(),
        counts.failed());
  }
}
