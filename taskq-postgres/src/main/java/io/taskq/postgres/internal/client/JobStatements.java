package io.taskq.postgres.internal.client;

import io.taskq.core.JobStatus;
import io.taskq.core.SchemaName;
import io.taskq.postgres.CancelResult;
import io.taskq.postgres.JobInfo;
import io.taskq.postgres.internal.NamedStatements;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/** Looks one job up and cancels one job (L8), each in one statement. */
public final class JobStatements {
  private final NamedStatements sql;
  private final int timeoutSeconds;

  public JobStatements(SchemaName schema, int timeoutSeconds) {
    this.sql = NamedStatements.load("io/taskq/postgres/sql/jobs.sql", schema);
    this.timeoutSeconds = timeoutSeconds;
  }

  /** The job's row from {@code jobs}, or from {@code jobs_archive} once pruned. */
  public Optional<JobInfo> find(Connection c, long id) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.get("find"))) {
      ps.setQueryTimeout(timeoutSeconds);
      ps.setLong(1, id);
      ps.setLong(2, id);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(JobLookup.read(rs)) : Optional.empty();
      }
    }
  }

  /**
   * Cancels a scheduled or pending job, or requests the cancel of a running one; the event row of a
   * cancellation is written by the same statement (B6). Runs in auto-commit: one statement.
   */
  public CancelResult cancel(Connection c, long id) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.get("cancel"))) {
      ps.setQueryTimeout(timeoutSeconds);
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        if (rs.next()) {
          return JobStatus.fromDb(rs.getString(1)) == JobStatus.RUNNING
              ? CancelResult.CANCEL_REQUESTED
              : CancelResult.CANCELLED;
        }
      }
    }
    return exists(c, id) ? CancelResult.ALREADY_FINISHED : CancelResult.NOT_FOUND;
  }

  private boolean exists(Connection c, long id) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.get("status"))) {
      ps.setQueryTimeout(timeoutSeconds);
      ps.setLong(1, id);
      ps.setLong(2, id);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    }
  }
}
