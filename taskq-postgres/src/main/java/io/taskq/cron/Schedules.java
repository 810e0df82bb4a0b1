package io.taskq.cron;

import io.taskq.JobStoreException;
import io.taskq.SchemaName;
import io.taskq.TaskQ;
import io.taskq.postgres.internal.CallerText;
import io.taskq.postgres.internal.Handles;
import io.taskq.postgres.internal.NamedStatements;
import io.taskq.postgres.internal.client.Transactions;
import io.taskq.postgres.internal.cron.PayloadFactories;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * Creates, changes, enables, disables, deletes and lists the cron schedules of one schema (S12).
 * Thread-safe; holds no connection between calls. Get it from {@link TaskQ#schedules()}.
 *
 * <p>{@link #put(Schedule)} is idempotent by name: the first call creates the schedule, later calls
 * with the same definition change nothing, and a changed definition replaces the stored one (the
 * next fire time is recomputed only when the expression or the time zone changed). So an
 * application can put its schedules on every start. A schedule's enabled state and failure count
 * belong to operations: {@code put} never changes them on an existing schedule; {@link #enable} and
 * {@link #disable} do. Times come from the database clock. {@code docs/cron.md} has the full story
 * (misfires, daylight-saving time, failures and auto-disable).
 */
public final class Schedules {
  private final DataSource dataSource;
  private final SchemaName schema;
  private final NamedStatements sql;
  private final @Nullable PayloadFactories factories;

  static {
    Handles.registerSchedules(Schedules::new);
  }

  /**
   * The schedules of {@code schema}; TaskQ builds it, get it from {@link TaskQ#schedules()}.
   *
   * @param dataSource the database the schedules live in
   * @param schema the TaskQ schema
   * @param factories the payload factories registered, or {@code null} when names cannot be checked
   */
  Schedules(DataSource dataSource, SchemaName schema, @Nullable PayloadFactories factories) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    this.schema = Objects.requireNonNull(schema, "schema");
    this.sql = NamedStatements.load("io/taskq/postgres/sql/cron.sql", schema);
    this.factories = factories;
  }

  /**
   * {@return a client of {@code schema}'s schedules that cannot check payload factory names (a
   * process that registers none, such as an admin tool)} The schema must be migrated already.
   *
   * @param dataSource the database the schedules live in
   * @param schema the TaskQ schema, already migrated
   */
  public static Schedules create(DataSource dataSource, SchemaName schema) {
    return new Schedules(dataSource, schema, null);
  }

  /**
   * Creates the schedule, or updates the one of that name to this definition.
   *
   * @param schedule the schedule's definition
   * @return the stored schedule
   * @throws IllegalArgumentException when the schedule names a payload factory that is not
   *     registered in this TaskQ
   * @throws JobStoreException when the database call fails
   */
  public ScheduleInfo put(Schedule schedule) {
    Objects.requireNonNull(schedule, "schedule");
    String factory = schedule.payloadFactory();
    if (factory != null && factories != null && factories.get(factory) == null) {
      throw new IllegalArgumentException(
          "schedule '"
              + schedule.name()
              + "' names payload factory '"
              + factory
              + "', which is not registered (registered: "
              + factories.names()
              + "); register it with TaskQ.registerPayloadFactory first");
    }
    try (Connection c = dataSource.getConnection()) {
      return Transactions.owned(
          c,
          true,
          conn -> {
            Instant next = schedule.cron().nextAfter(now(conn), schedule.timeZone());
            upsert(conn, schedule, next);
            return find(conn, schedule.name()).orElseThrow();
          });
    } catch (SQLException e) {
      throw failure("put schedule '" + schedule.name() + "'", e);
    }
  }

  private void upsert(Connection c, Schedule s, Instant next) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.get("upsert_schedule"))) {
      int i = 1;
      ps.setString(i++, s.name());
      ps.setString(i++, s.actor());
      ps.setString(i++, s.cron().text());
      ps.setString(i++, s.timeZone().getId());
      setNullable(ps, i++, s.payloadJson());
      setNullable(ps, i++, s.payloadFactory());
      setNullable(ps, i++, s.queue());
      ps.setShort(i++, s.priority());
      ps.setInt(i++, s.retryPolicy().maxAttempts());
      ps.setString(i++, s.retryPolicy().backoff().dbValue());
      ps.setLong(i++, s.retryPolicy().base().toMillis());
      ps.setLong(i++, s.retryPolicy().cap().toMillis());
      ps.setDouble(i++, s.retryPolicy().jitter());
      ps.setString(i++, s.misfirePolicy().dbValue());
      ps.setBoolean(i++, s.enabled());
      ps.setString(i, next.toString());
      ps.executeUpdate();
    }
  }

  /**
   * Enables the schedule. Re-enabling starts afresh: its next fire is the first one after now (no
   * burst for the fires missed while disabled) and its failure count goes back to 0.
   *
   * @param name the schedule's name
   * @return false when no schedule has that name
   */
  public boolean enable(String name) {
    checkName(name);
    try (Connection c = dataSource.getConnection()) {
      return Transactions.owned(
          c,
          true,
          conn -> {
            String cron;
            String zone;
            try (PreparedStatement ps = conn.prepareStatement(sql.get("lock_schedule"))) {
              ps.setString(1, name);
              try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                  return false;
                }
                cron = rs.getString("cron_expression");
                zone = rs.getString("time_zone");
              }
            }
            Instant next = CronExpression.parse(cron).nextAfter(now(conn), ZoneId.of(zone));
            try (PreparedStatement ps = conn.prepareStatement(sql.get("enable_schedule"))) {
              ps.setString(1, next.toString());
              ps.setString(2, name);
              ps.executeUpdate();
            }
            return true;
          });
    } catch (SQLException e) {
      throw failure("enable schedule '" + name + "'", e);
    }
  }

  /**
   * Disables the schedule: the cron loop no longer fires it (a tick already running may still fire
   * it once).
   *
   * @param name the schedule's name
   * @return false when no enabled schedule has that name
   */
  public boolean disable(String name) {
    return updateOne("disable_schedule", "disable", name);
  }

  /**
   * Deletes the schedule; jobs it already enqueued are not touched.
   *
   * @param name the schedule's name
   * @return false when no schedule has that name
   */
  public boolean delete(String name) {
    return updateOne("delete_schedule", "delete", name);
  }

  private boolean updateOne(String statement, String what, String name) {
    checkName(name);
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(sql.get(statement))) {
      ps.setString(1, name);
      return ps.executeUpdate() > 0;
    } catch (SQLException e) {
      throw failure(what + " schedule '" + name + "'", e);
    }
  }

  /**
   * {@return the schedule of that name, or empty}
   *
   * @param name the schedule's name
   */
  public Optional<ScheduleInfo> find(String name) {
    checkName(name);
    try (Connection c = dataSource.getConnection()) {
      return find(c, name);
    } catch (SQLException e) {
      throw failure("look up schedule '" + name + "'", e);
    }
  }

  /** {@return every schedule of the schema, by name} */
  public List<ScheduleInfo> list() {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(sql.get("list_schedules"));
        ResultSet rs = ps.executeQuery()) {
      List<ScheduleInfo> out = new ArrayList<>();
      while (rs.next()) {
        out.add(info(rs));
      }
      return out;
    } catch (SQLException e) {
      throw failure("list schedules", e);
    }
  }

  private Optional<ScheduleInfo> find(Connection c, String name) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.get("find_schedule"))) {
      ps.setString(1, name);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(info(rs)) : Optional.empty();
      }
    }
  }

  /** One row of {@code find_schedule} / {@code list_schedules} (cron.sql), read by column name. */
  private static ScheduleInfo info(ResultSet rs) throws SQLException {
    long lastJob = rs.getLong("last_job_id");
    Long lastJobId = rs.wasNull() ? null : lastJob;
    return new ScheduleInfo(
        rs.getString("name"),
        rs.getString("actor"),
        rs.getString("cron_expression"),
        ZoneId.of(rs.getString("time_zone")),
        rs.getString("payload"),
        rs.getString("payload_factory"),
        rs.getString("queue"),
        rs.getInt("priority"),
        MisfirePolicy.fromDbValue(rs.getString("misfire_policy")),
        rs.getBoolean("enabled"),
        rs.getTimestamp("next_fire_at").toInstant(),
        rs.getInt("consecutive_failures"),
        rs.getString("last_fire_error"),
        instant(rs.getTimestamp("last_fired_at")),
        lastJobId,
        rs.getTimestamp("created_at").toInstant(),
        rs.getTimestamp("updated_at").toInstant());
  }

  private static @Nullable Instant instant(@Nullable Timestamp t) {
    return t == null ? null : t.toInstant();
  }

  private Instant now(Connection c) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.get("now"));
        ResultSet rs = ps.executeQuery()) {
      rs.next();
      return rs.getTimestamp(1).toInstant();
    }
  }

  private static void setNullable(PreparedStatement ps, int index, @Nullable String value)
      throws SQLException {
    if (value == null) {
      ps.setNull(index, Types.VARCHAR);
    } else {
      ps.setString(index, value);
    }
  }

  private static void checkName(String name) {
    CallerText.requireName(
        "schedule name", Objects.requireNonNull(name, "name"), Schedule.MAX_NAME_CHARS);
  }

  private JobStoreException failure(String what, SQLException e) {
    return new JobStoreException("cannot " + what + " in " + schema.quoted(), e);
  }
}
