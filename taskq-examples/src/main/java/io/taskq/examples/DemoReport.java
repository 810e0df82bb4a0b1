package io.taskq.examples;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

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
}
