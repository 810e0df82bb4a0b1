package io.taskq.postgres.internal.operations;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.SchemaName;
import io.taskq.postgres.internal.NamedStatements;
import io.taskq.postgres.internal.migrate.Migrations;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * O1: the gauge samplers' reads (backlog detection, per-actor backlog, reservation slots) are
 * index-backed: on a hot table of 200 000 jobs, nearly all finished, none of them reads a table
 * sequentially, and the backlog counts stop at their bound.
 */
@TaskQTest
@Tag("O1")
class GaugeSamplerPlanTest {
  private static final int JOBS = 200_000;

  private static DataSource dataSource;
  private static SchemaName schema;
  private static NamedStatements sql;

  @BeforeAll
  static void fill(TestServices services) throws SQLException {
    dataSource = services.dataSource();
    schema = SchemaName.of(services.schema());
    Migrations.apply(dataSource, schema);
    sql = NamedStatements.load("io/taskq/postgres/sql/operations.sql", schema);
    execute("TRUNCATE {schema}.jobs, {schema}.reservation_slots CASCADE");
    execute(
        "INSERT INTO {schema}.jobs (actor, queue, status, payload, run_at, attempt, max_attempts,"
            + " retry_backoff, retry_base_ms, retry_cap_ms, retry_jitter, finished_at)"
            + " SELECT 'actor-' || (n % 20), 'queue-' || (n % 5),"
            + "   CASE WHEN n % 100 = 0 THEN 'pending' WHEN n % 100 = 1 THEN 'scheduled'"
            + "        ELSE 'succeeded' END,"
            + "   '{}', now() - interval '1 minute', 1, 3, 'constant', 10, 10, 0,"
            + "   CASE WHEN n % 100 > 1 THEN now() END"
            + " FROM generate_series(1, "
            + JOBS
            + ") AS n");
    execute(
        "INSERT INTO {schema}.reservation_slots (scope_kind, scope_name, slot, keyed)"
            + " SELECT 'key', 'k:' || n, 0, true FROM generate_series(1, 20000) AS n");
    execute("ANALYZE {schema}.jobs");
    execute("ANALYZE {schema}.reservation_slots");
  }

  private static void execute(String text) throws SQLException {
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement()) {
      s.execute(text.replace("{schema}", schema.quoted()));
    }
  }

  private static String plan(String name, int binds) throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement("EXPLAIN " + sql.get(name))) {
      for (int i = 1; i <= binds; i++) {
        ps.setInt(i, 10_001);
      }
      StringBuilder out = new StringBuilder();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.append(rs.getString(1)).append('\n');
        }
      }
      return out.toString();
    }
  }

  @Test
  void everySamplerRead_isIndexBacked() throws SQLException {
    for (String name : List.of("sweep_backlog", "actor_backlog", "reservation_slots")) {
      String plan = plan(name, name.equals("sweep_backlog") ? 4 : 0);
      assertThat(plan).as(name + "\n" + plan).doesNotContain("Seq Scan");
    }
  }

  @Test
  void theBacklogCounts_stopAtTheirBound() throws SQLException {
    // 2 000 scheduled and due: a bound of 100 counts 100 of them, not 2 000.
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(sql.get("sweep_backlog"))) {
      for (int i = 1; i <= 4; i++) {
        ps.setInt(i, 100);
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          if (rs.getString("sweep_name").equals("scheduled_to_pending")) {
            assertThat(rs.getLong("eligible")).isEqualTo(100);
          }
        }
      }
    }
  }
}
