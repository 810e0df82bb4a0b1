package io.taskq.postgres.internal.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.SchemaName;
import io.taskq.postgres.internal.NamedStatements;
import io.taskq.postgres.internal.migrate.Migrations;
import io.taskq.postgres.testing.Db;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Pins the index each worker statement uses (the table in {@code docs/workers.md}), with {@code
 * EXPLAIN} over 20 000 jobs and fresh statistics, so a sequential scan would lose.
 */
@TaskQTest
@Tag("L4")
class WorkerIndexUsageTest {
  private static SchemaName schema;
  private static DataSource ds;

  @BeforeAll
  static void fill(TestServices services) {
    schema = SchemaName.of(services.schema());
    ds = services.dataSource();
    Migrations.apply(ds, schema);
    Db db = new Db(ds);
    db.execute(
        NamedStatements.substitute(
            "INSERT INTO {schema}.jobs (actor, queue, status, payload, run_at, max_attempts,"
                + " retry_backoff, retry_base_ms, retry_cap_ms, retry_jitter, locked_by,"
                + " lock_expires_at, lease_token)"
                + " SELECT 'a', 'default', CASE WHEN n % 10 = 0 THEN 'running' ELSE 'succeeded' END,"
                + " '{}', now(), 3, 'constant', 1, 1, 0,"
                + " CASE WHEN n % 10 = 0 THEN 'w' || (n % 50) END,"
                + " CASE WHEN n % 10 = 0 THEN now() + interval '1 minute' END,"
                + " CASE WHEN n % 10 = 0 THEN n END"
                + " FROM generate_series(1, 20000) AS n",
            schema));
    db.execute(
        NamedStatements.substitute(
            "UPDATE {schema}.jobs SET status = 'pending', locked_by = NULL, lock_expires_at = NULL,"
                + " lease_token = NULL WHERE id % 100 = 1",
            schema));
    db.execute("ANALYZE " + schema.quoted() + ".jobs");
  }

  private static NamedStatements sql(String file) {
    return NamedStatements.load("io/taskq/postgres/sql/" + file, schema);
  }

  @Test
  void claim_updatesThePickedIdsByPrimaryKey() throws SQLException {
    try (Connection c = ds.getConnection();
        PreparedStatement ps = c.prepareStatement("EXPLAIN " + sql("claim.sql").get("claim"))) {
      ps.setArray(1, c.createArrayOf("text", new Object[] {"default"}));
      ps.setArray(2, c.createArrayOf("text", new Object[] {"a"}));
      ps.setInt(3, 10);
      ps.setString(4, "w1");
      ps.setLong(5, 30_000);
      // The picking itself (claim_pick, V008) is pinned by ClaimPlanTest.
      assertThat(read(ps)).contains("jobs_pkey").doesNotContain("Seq Scan on jobs");
    }
  }

  @Test
  void heartbeat_findsTheHeldLeasesByKey() throws SQLException {
    try (Connection c = ds.getConnection();
        PreparedStatement ps = c.prepareStatement("EXPLAIN " + sql("lease.sql").get("heartbeat"))) {
      ps.setString(1, "w1");
      ps.setString(2, "host");
      ps.setLong(3, 1);
      ps.setArray(4, c.createArrayOf("text", new Object[] {"default"}));
      ps.setInt(5, 8);
      ps.setArray(6, c.createArrayOf("bigint", new Object[] {10L, 20L, 30L}));
      ps.setArray(7, c.createArrayOf("bigint", new Object[] {10L, 20L, 30L}));
      ps.setLong(8, 30_000);
      ps.setString(9, "w1");
      assertThat(read(ps))
          .containsPattern("jobs_(pkey|running_idx)")
          .doesNotContain("Seq Scan on jobs");
    }
  }

  @Test
  void completion_updatesByPrimaryKey() throws SQLException {
    try (Connection c = ds.getConnection();
        PreparedStatement ps =
            c.prepareStatement("EXPLAIN " + sql("completion.sql").get("complete"))) {
      ps.setLong(1, 86_400_000);
      ps.setLong(2, 3_600_000);
      ps.setString(3, "w1");
      ps.setArray(4, c.createArrayOf("bigint", new Object[] {10L, 20L}));
      ps.setArray(5, c.createArrayOf("bigint", new Object[] {10L, 20L}));
      ps.setArray(6, c.createArrayOf("boolean", new Object[] {true, false}));
      ps.setArray(7, c.createArrayOf("text", new Object[] {"{}", null}));
      ps.setArray(8, c.createArrayOf("text", new Object[] {null, "E"}));
      ps.setArray(9, c.createArrayOf("text", new Object[] {null, "m"}));
      ps.setArray(10, c.createArrayOf("text", new Object[] {null, "s"}));
      ps.setArray(11, c.createArrayOf("boolean", new Object[] {true, true}));
      ps.setString(12, "taskq_wake_0123456789");
      assertThat(read(ps)).contains("jobs_pkey").doesNotContain("Seq Scan on jobs");
    }
  }

  @Test
  void release_updatesByPrimaryKey() throws SQLException {
    try (Connection c = ds.getConnection();
        PreparedStatement ps = c.prepareStatement("EXPLAIN " + sql("lease.sql").get("release"))) {
      ps.setString(1, "w1");
      ps.setArray(2, c.createArrayOf("bigint", new Object[] {10L}));
      ps.setArray(3, c.createArrayOf("bigint", new Object[] {10L}));
      ps.setString(4, "taskq_wake_0123456789");
      assertThat(read(ps)).contains("jobs_pkey").doesNotContain("Seq Scan on jobs");
    }
  }

  private static String read(PreparedStatement ps) throws SQLException {
    List<String> lines = new ArrayList<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        lines.add(rs.getString(1));
      }
    }
    return String.join("\n", lines);
  }
}
