package io.taskq.postgres.internal.operations;

import io.taskq.JobStatus;
import io.taskq.operations.AttemptRecord;
import io.taskq.operations.EventRecord;
import io.taskq.operations.JobSummary;
import io.taskq.operations.Pause;
import io.taskq.operations.PauseTarget;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/** Maps the rows of {@code operations.sql}, by column name. */
final class Rows {
  private Rows() {}

  static JobSummary summary(ResultSet rs) throws SQLException {
    return new JobSummary(
        rs.getLong("id"),
        rs.getString("actor"),
        rs.getString("queue"),
        JobStatus.fromDb(rs.getString("status")),
        rs.getInt("priority"),
        rs.getInt("attempt"),
        rs.getInt("max_attempts"),
        required(rs, "run_at"),
        required(rs, "created_at"),
        instant(rs, "started_at"),
        instant(rs, "finished_at"),
        rs.getString("error_class"),
        rs.getString("error_message"),
        labels(rs.getArray("label_keys"), rs.getArray("label_values")),
        rs.getBoolean("archived"));
  }

  static AttemptRecord attempt(ResultSet rs) throws SQLException {
    return new AttemptRecord(
        rs.getInt("attempt"),
        rs.getString("outcome"),
        rs.getString("worker_id"),
        rs.getString("error_class"),
        rs.getString("error_message"),
        rs.getString("error_stack"),
        instant(rs, "started_at"),
        required(rs, "finished_at"));
  }

  static EventRecord event(ResultSet rs) throws SQLException {
    return new EventRecord(
        rs.getLong("event_id"),
        rs.getString("kind"),
        rs.getInt("attempt"),
        rs.getString("disposition"),
        rs.getString("error_class"),
        rs.getString("error_message"),
        rs.getString("note"),
        required(rs, "occurred_at"));
  }

  static Pause pause(ResultSet rs) throws SQLException {
    PauseTarget.Kind kind = PauseTarget.Kind.valueOf(rs.getString("kind").toUpperCase(Locale.ROOT));
    return new Pause(
        new PauseTarget(kind, rs.getString("name")),
        required(rs, "paused_at"),
        rs.getString("paused_by"),
        rs.getString("reason"));
  }

  /** The labels as two parallel arrays sorted by key (as {@code find} reads them). */
  static Map<String, String> labels(Array keys, Array values) throws SQLException {
    String[] k = (String[]) keys.getArray();
    String[] v = (String[]) values.getArray();
    Map<String, String> out = new TreeMap<>();
    for (int i = 0; i < k.length; i++) {
      out.put(k[i], v[i]);
    }
    return out;
  }

  static Instant required(ResultSet rs, String column) throws SQLException {
    Instant value = instant(rs, column);
    if (value == null) {
      throw new SQLException(column + " is NOT NULL but was read as null");
    }
    return value;
  }

  static @Nullable Instant instant(ResultSet rs, String column) throws SQLException {
    OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
    return value == null ? null : value.toInstant();
  }
}
