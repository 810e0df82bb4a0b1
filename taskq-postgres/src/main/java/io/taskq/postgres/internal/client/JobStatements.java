package io.taskq.postgres.internal.client;

import io.taskq.JobInfo;
import io.taskq.JobStatus;
import io.taskq.SchemaName;
import io.taskq.bulk.CancelResult;
import io.taskq.core.internal.NotifyChannels;
import io.taskq.postgres.internal.CallerText;
import io.taskq.postgres.internal.NamedStatements;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/** Looks one job up and cancels one job (L8), each in one statement. */
public final class JobStatements {
  private final NamedStatements sql;
  private final int timeoutSeconds;
  private final String workerChannelPrefix;
  private final String wakeChannel;

  public JobStatements(SchemaName schema, int timeoutSeconds) {
    this.sql = NamedStatements.load("io/taskq/postgres/sql/jobs.sql", schema);
    this.timeoutSeconds = timeoutSeconds;
    this.workerChannelPrefix = workerChannelPrefix(schema);
    this.wakeChannel = NotifyChannels.of(schema).wake().name();
  }

  /** {@code taskq_worker_{tag}_}: the owner's channel is this followed by its worker id. */
  public static String workerChannelPrefix(SchemaName schema) {
    String probe = "0";
    String channel = NotifyChannels.of(schema).worker(probe).name();
    return channel.substring(0, channel.length() - probe.length());
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
   * Cancels a scheduled or pending job, or requests the cancel of a running one; the event row
   * ({@code cancelled}, or {@code cancel_requested} for a running job) is written by the same
   * statement (B6), and so is the NOTIFY that tells a running job's worker at once. Runs in
   * auto-commit: one statement. The event's note names {@code by} ({@code "cancelled by <by>"},
   * {@code "cancel requested by <by>"}); there is none when {@code by} is null or blank. A running
   * job whose cancel was already requested is left as it is: the first request keeps its time and
   * its author.
   */
  public CancelResult cancel(Connection c, long id, @Nullable String by) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.get("cancel"))) {
      ps.setQueryTimeout(timeoutSeconds);
      ps.setLong(1, id);
      ps.setString(2, CallerText.operator(by));
      ps.setString(3, workerChannelPrefix);
      ps.setString(4, wakeChannel);
      try (ResultSet rs = ps.executeQuery()) {
        if (rs.next()) {
          return JobStatus.fromDb(rs.getString(1)) == JobStatus.RUNNING
              ? CancelResult.CANCEL_REQUESTED
              : CancelResult.CANCELLED;
        }
      }
    }
    Optional<JobStatus> status = status(c, id);
    if (status.isEmpty()) {
      return CancelResult.NOT_FOUND;
    }
    return status.get() == JobStatus.RUNNING
        ? CancelResult.CANCEL_REQUESTED
        : CancelResult.ALREADY_FINISHED;
  }

  /** The job's status (hot table or archive), or empty for an unknown id. */
  private Optional<JobStatus> status(Connection c, long id) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.get("status"))) {
      ps.setQueryTimeout(timeoutSeconds);
      ps.setLong(1, id);
      ps.setLong(2, id);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(JobStatus.fromDb(rs.getString(1))) : Optional.empty();
      }
    }
  }
}
