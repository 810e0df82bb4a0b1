package io.taskq.postgres.internal.client;

import io.taskq.JobInfo;
import io.taskq.JobStatus;
import io.taskq.RetryPolicy;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/** Maps a row of the {@code find} statement to a {@link JobInfo}. */
final class JobLookup {
  private JobLookup() {}

  static JobInfo read(ResultSet rs) throws SQLException {
    return new JobInfo(
        rs.getLong("id"),
        rs.getString("actor"),
        rs.getString("queue"),
        JobStatus.fromDb(rs.getString("status")),
        rs.getShort("priority"),
        rs.getString("payload"),
        labels(rs.getArray("label_keys"), rs.getArray("label_values")),
        required(rs, "run_at"),
        rs.getInt("attempt"),
        policy(rs),
        rs.getInt("snoozes"),
        instant(rs, "deadline_at"),
        rs.getString("locked_by"),
        instant(rs, "lock_expires_at"),
        instant(rs, "cancel_requested_at"),
        rs.getString("unique_key"),
        instant(rs, "unique_until"),
        rs.getString("concurrency_key"),
        rs.getString("result"),
        instant(rs, "result_expires_at"),
        rs.getString("error_class"),
        rs.getString("error_message"),
        rs.getString("error_stack"),
        required(rs, "created_at"),
        instant(rs, "started_at"),
        instant(rs, "finished_at"),
        rs.getBoolean("archived"));
  }

  private static RetryPolicy policy(ResultSet rs) throws SQLException {
    return RetryPolicy.of(
        RetryPolicy.Backoff.valueOf(rs.getString("retry_backoff").toUpperCase(Locale.ROOT)),
        Duration.ofMillis(rs.getLong("retry_base_ms")),
        Duration.ofMillis(rs.getLong("retry_cap_ms")),
        rs.getDouble("retry_jitter"),
        rs.getInt("max_attempts"));
  }

  private static Map<String, String> labels(Array keys, Array values) throws SQLException {
    String[] k = (String[]) keys.getArray();
    String[] v = (String[]) values.getArray();
    Map<String, String> out = new TreeMap<>();
    for (int i = 0; i < k.length; i++) {
      out.put(k[i], v[i]);
    }
    return out;
  }

  private static Instant required(ResultSet rs, String column) throws SQLException {
    Instant value = instant(rs, column);
    if (value == null) {
      throw new IllegalStateException("jobs." + column + " is NOT NULL but read as null");
    }
    return value;
  }

  private static @Nullable Instant instant(ResultSet rs, String column) throws SQLException {
    OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
    return value == null ? null : value.toInstant();
  }
}
