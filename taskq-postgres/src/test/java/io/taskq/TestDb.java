package io.taskq;

import io.taskq.core.internal.NotifyChannels;
import io.taskq.postgres.internal.NamedStatements;
import io.taskq.postgres.internal.migrate.Migrations;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/** Test-side access to one schema: set it up, put jobs in, read rows back. */
final class TestDb {
  final DataSource dataSource;
  final SchemaName schema;

  TestDb(DataSource dataSource, String schema) {
    this.dataSource = dataSource;
    this.schema = SchemaName.of(schema);
  }

  static TestDb of(TestServices services) {
    return new TestDb(services.dataSource(), services.schema());
  }

  /** Settings for this schema with quick test timings. */
  TaskQConfig.Builder config() {
    return TaskQConfig.builder()
        .schemaName(schema.value())
        .pollInterval(Duration.ofMillis(200))
        .heartbeatInterval(Duration.ofMillis(200))
        .leasePeriod(Duration.ofSeconds(10))
        .shutdownGrace(Duration.ofSeconds(5));
  }

  /**
   * A TaskQ on this schema with {@code settings} (not started), running no maintenance: these tests
   * pin the worker's own behaviour, with no reclaim sweep acting behind their backs.
   */
  TaskQ taskq(TaskQConfig.Builder settings) {
    return TaskQ.builder(dataSource)
        .config(settings.build())
        .migrate(false)
        .maintenance(false)
        .build();
  }

  /** A TaskQ on this schema with {@code settings} that campaigns for maintenance leadership. */
  TaskQ maintainingTaskq(TaskQConfig.Builder settings) {
    return TaskQ.builder(dataSource).config(settings.build()).migrate(false).build();
  }

  /** A TaskQ on this schema with quick test timings (not started). */
  TaskQ taskq() {
    return taskq(config());
  }

  /** Brings the schema up to date. */
  TestDb migrate() {
    Migrations.apply(dataSource, schema);
    return this;
  }

  /** Empties every table the lifecycle writes, so each test starts clean. */
  void truncate() throws SQLException {
    execute(
        sql(
            "TRUNCATE {schema}.jobs, {schema}.job_attempts, {schema}.job_events,"
                + " {schema}.workers, {schema}.actor_config"));
  }

  String sql(String text) {
    return NamedStatements.substitute(text, schema);
  }

  void execute(String sql) throws SQLException {
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  /** Enqueues {@code count} due jobs for {@code actor} with {@code policy}; returns their ids. */
  // TODO switch to JobsClient once it lands
  List<Long> enqueue(String actor, String queue, int count, RetryPolicy policy)
      throws SQLException {
    String insert =
        sql(
            "INSERT INTO {schema}.jobs (actor, queue, status, payload, run_at, max_attempts,"
                + " retry_backoff, retry_base_ms, retry_cap_ms, retry_jitter)"
                + " SELECT ?, ?, 'pending', jsonb_build_object('n', n), clock_timestamp(), ?, ?, ?, ?, ?"
                + " FROM generate_series(1, ?) AS n RETURNING id");
    try (Connection c = dataSource.getConnection();
        PreparedStatement s = c.prepareStatement(insert)) {
      s.setString(1, actor);
      s.setString(2, queue);
      s.setInt(3, policy.maxAttempts());
      s.setString(4, policy.backoff().dbValue());
      s.setLong(5, policy.base().toMillis());
      s.setLong(6, policy.cap().toMillis());
      s.setDouble(7, policy.jitter());
      s.setInt(8, count);
      List<Long> ids = new ArrayList<>();
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          ids.add(rs.getLong(1));
        }
      }
      return ids;
    }
  }

  long enqueueOne(String actor, RetryPolicy policy) throws SQLException {
    return enqueue(actor, "default", 1, policy).get(0);
  }

  /** Sends the wake NOTIFY an enqueue sends. */
  void notifyWake() throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement s = c.prepareStatement("SELECT pg_notify(?, '')")) {
      s.setString(1, NotifyChannels.of(schema).wake().name());
      s.execute();
    }
  }

  String status(long id) throws SQLException {
    return String.valueOf(job(id).get("status"));
  }

  /** The job's row, column name to value. */
  Map<String, Object> job(long id) throws SQLException {
    List<Map<String, Object>> rows = rows(sql("SELECT * FROM {schema}.jobs WHERE id = ?"), id);
    if (rows.isEmpty()) {
      throw new AssertionError("no job " + id);
    }
    return rows.get(0);
  }

  /**
   * The job's finished attempts in order (X2: job_attempt_history, so a success recorded on the job
   * row is one too); {@code id} is the attempt row's, NULL for such a success.
   */
  List<Map<String, Object>> attempts(long id) throws SQLException {
    return rows(
        sql(
            "SELECT h.*, h.attempt_row AS id FROM {schema}.job_attempt_history h"
                + " WHERE job_id = ? ORDER BY attempt, attempt_row NULLS LAST"),
        id);
  }

  List<Map<String, Object>> events(long id) throws SQLException {
    return rows(sql("SELECT * FROM {schema}.job_events WHERE job_id = ? ORDER BY event_id"), id);
  }

  long count(String whereSql, Object... args) throws SQLException {
    return queryLong(sql("SELECT count(*) FROM {schema}." + whereSql), args);
  }

  long queryLong(String sql, Object... args) throws SQLException {
    List<Map<String, Object>> rows = rows(sql, args);
    return ((Number) rows.get(0).values().iterator().next()).longValue();
  }

  List<Map<String, Object>> rows(String sql, Object... args) throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement s = c.prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        s.setObject(i + 1, args[i]);
      }
      List<Map<String, Object>> rows = new ArrayList<>();
      try (ResultSet rs = s.executeQuery()) {
        int columns = rs.getMetaData().getColumnCount();
        while (rs.next()) {
          Map<String, Object> row = new HashMap<>();
          for (int i = 1; i <= columns; i++) {
            Object value = rs.getObject(i);
            row.put(
                rs.getMetaData().getColumnLabel(i),
                value instanceof java.sql.Timestamp t ? t.toInstant() : value);
          }
          rows.add(row);
        }
      }
      return rows;
    }
  }
}
