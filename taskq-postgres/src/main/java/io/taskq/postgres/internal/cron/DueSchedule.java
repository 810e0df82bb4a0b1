package io.taskq.postgres.internal.cron;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/** A due schedule as a cron tick selects it, with its actor's queue and the database's now. */
record DueSchedule(
    String name,
    String actor,
    String cron,
    String timeZone,
    @Nullable String payload,
    @Nullable String payloadFactory,
    @Nullable String queue,
    int priority,
    int maxAttempts,
    String retryBackoff,
    long retryBaseMs,
    long retryCapMs,
    double retryJitter,
    String misfirePolicy,
    Instant nextFireAt,
    @Nullable String actorQueue,
    Instant now) {
  /** Reads the current row of {@code select_due} (cron.sql), by column name. */
  static DueSchedule read(ResultSet rs) throws SQLException {
    return new DueSchedule(
        rs.getString("name"),
        rs.getString("actor"),
        rs.getString("cron_expression"),
        rs.getString("time_zone"),
        rs.getString("payload"),
        rs.getString("payload_factory"),
        rs.getString("queue"),
        rs.getInt("priority"),
        rs.getInt("max_attempts"),
        rs.getString("retry_backoff"),
        rs.getLong("retry_base_ms"),
        rs.getLong("retry_cap_ms"),
        rs.getDouble("retry_jitter"),
        rs.getString("misfire_policy"),
        rs.getTimestamp("next_fire_at").toInstant(),
        rs.getString("actor_queue"),
        rs.getTimestamp("now").toInstant());
  }
}
