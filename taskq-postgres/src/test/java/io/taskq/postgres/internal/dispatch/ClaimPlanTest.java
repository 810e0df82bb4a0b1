package io.taskq.postgres.internal.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.SchemaName;
import io.taskq.postgres.internal.NamedStatements;
import io.taskq.postgres.internal.migrate.Migrations;
import io.taskq.postgres.testing.AutoExplain;
import io.taskq.postgres.testing.Db;
import io.taskq.postgres.testing.PreparedSql;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * X1: the claim, the completion and the heartbeat read only what they touch, however large the
 * table. Beside the served queue's own jobs the table holds 1 000 000 pending jobs of a queue the
 * worker does not serve and 1 000 000 finished jobs not yet pruned, with fresh statistics. Each
 * statement is run under {@code EXPLAIN ANALYZE} (rolled back) with a custom plan and with a
 * generic plan ({@code plan_cache_mode}); the claim's picking statements inside {@code claim_pick}
 * (V008, V015) are caught by {@code auto_explain} (session-local, nested statements). Every access
 * to {@code jobs} must go through the claim index or the primary key, no node may read more than a
 * few batches of rows, and no plan may be JIT-compiled.
 */
@TaskQTest
@Tag("X1")
class ClaimPlanTest {
  private static final int OTHER_PENDING = 1_000_000;
  private static final int FINISHED = 1_000_000;
  private static final int SERVED_PENDING = 2_000;
  private static final int RUNNING = 256;
  private static final int BATCH = 256;
  private static final Pattern ROWS = Pattern.compile("rows=(\\d+) loops=(\\d+)");
  private static final Pattern REMOVED = Pattern.compile("Rows Removed by Filter: (\\d+)");

  private static SchemaName schema;
  private static DataSource ds;

  @BeforeAll
  static void fill(TestServices services) {
    schema = SchemaName.of(services.schema());
    ds = services.dataSource();
    Migrations.apply(ds, schema);
    Db db = new Db(ds);
    insert(db, OTHER_PENDING, "'other'", "'other'", "'pending'", "0");
    insert(db, FINISHED, "'default'", "'a'", "'succeeded'", "0");
    insert(db, SERVED_PENDING, "'default'", "'a'", "'pending'", "0");
    insert(db, SERVED_PENDING, "'default'", "'b'", "'pending'", "1");
    db.execute(
        NamedStatements.substitute(
            "INSERT INTO {schema}.jobs (actor, queue, status, payload, run_at, max_attempts,"
                + " retry_backoff, retry_base_ms, retry_cap_ms, retry_jitter, attempt, locked_by,"
                + " lock_expires_at, lease_token, started_at)"
                + " SELECT 'a', 'default', 'running', '{}', now(), 3, 'constant', 1, 1, 0, 1, 'w1',"
                + " now() + interval '1 minute', n, now() FROM generate_series(1, "
                + RUNNING
                + ") AS n",
            schema));
    db.execute("VACUUM ANALYZE " + schema.quoted() + ".jobs");
  }

  private static void insert(
      Db db, int rows, String queue, String actor, String status, String priority) {
    db.execute(
        NamedStatements.substitute(
            "INSERT INTO {schema}.jobs (actor, queue, status, priority, payload, run_at,"
                + " max_attempts, retry_backoff, retry_base_ms, retry_cap_ms, retry_jitter,"
                + " attempt, finished_at)"
                + " SELECT "
                + actor
                + ", "
                + queue
                + ", "
                + status
                + ", "
                + priority
                + ", '{}', now() - interval '1 hour' + n * interval '1 millisecond', 3,"
                + " 'constant', 1, 1, 0, 0,"
                + " CASE WHEN "
                + status
                + " = 'succeeded' THEN now() END"
                + " FROM generate_series(1, "
                + rows
                + ") AS n",
            schema));
  }

  private static String claimSql() {
    return NamedStatements.load("io/taskq/postgres/sql/claim.sql", schema).get("claim");
  }

  @Test
  void claim_oneQueueOneActor_readsOneRangeOfTheClaimIndex_customAndGeneric() throws SQLException {
    for (String mode : List.of("force_custom_plan", "force_generic_plan")) {
      Explained claim = explainClaim(mode, "'{default}'", "'{a}'");

      assertThat(claim.rows).as(mode).isEqualTo(BATCH);
      assertPickedByKey(claim, mode);
    }
  }

  @Test
  void claim_severalPairs_mergesTheirRangesInClaimOrder_customAndGeneric() throws SQLException {
    for (String mode : List.of("force_custom_plan", "force_generic_plan")) {
      Explained claim = explainClaim(mode, "'{default,elsewhere}'", "'{a,b}'");

      assertThat(claim.rows).as(mode).isEqualTo(BATCH);
      assertPickedByKey(claim, mode);
      assertThat(claim.nested).as(mode).contains("Index Only Scan using jobs_claim_queue_idx");
    }
  }

  @Test
  void claim_severalPairs_takesTheFirstJobsOfTheMergeAcrossPairs() throws SQLException {
    try (Connection c = ds.getConnection()) {
      c.setAutoCommit(false);
      try (Statement s = c.createStatement()) {
        // Three jobs of actor b that sort before every job of actor a.
        s.execute(
            NamedStatements.substitute(
                "INSERT INTO {schema}.jobs (actor, queue, status, priority, payload, run_at,"
                    + " max_attempts, retry_backoff, retry_base_ms, retry_cap_ms, retry_jitter)"
                    + " SELECT 'b', 'default', 'pending', -1, '{}', now() - interval '2 hours',"
                    + " 3, 'constant', 1, 1, 0 FROM generate_series(1, 3)",
                schema));
        s.execute(
            PreparedSql.prepare(
                "claim_merge", "text[], text[], integer, text, bigint", claimSql()));
        List<String> actors = new ArrayList<>();
        try (ResultSet rs =
            s.executeQuery("EXECUTE claim_merge('{default}', '{a,b}', 10, 'w1', 30000)")) {
          while (rs.next()) {
            actors.add(rs.getInt("priority") + ":" + rs.getString("actor"));
          }
        }
        assertThat(actors)
            .hasSize(10)
            .containsOnly("-1:b", "0:a")
            .filteredOn("-1:b"::equals)
            .hasSize(3);
      } finally {
        c.rollback();
      }
    }
  }

  @Test
  void completion_locksAndUpdatesByPrimaryKey_customAndGeneric() throws SQLException {
    String ids = idArray();
    String tokens = tokenArray();
    String succeeded = repeat("true");
    String nulls = repeat("NULL");
    String sql =
        NamedStatements.load("io/taskq/postgres/sql/completion.sql", schema).get("complete");
    for (String mode : List.of("force_custom_plan", "force_generic_plan")) {
      Explained done =
          explain(
              mode,
              sql,
              "bigint, bigint, text, bigint[], bigint[], boolean[], text[], text[], text[],"
                  + " text[], boolean[], text",
              "86400000, 3600000, 'w1', "
                  + ids
                  + ", "
                  + tokens
                  + ", "
                  + succeeded
                  + ", "
                  + nulls
                  + ", "
                  + nulls
                  + ", "
                  + nulls
                  + ", "
                  + nulls
                  + ", "
                  + succeeded
                  + ", 'taskq_wake_0123456789'");

      assertThat(done.rows).as(mode).isEqualTo(RUNNING);
      assertThat(done.plan).as(mode).contains("jobs_pkey");
      assertBounded(done.plan, mode);
    }
  }

  @Test
  void heartbeat_locksAndRenewsByPrimaryKey_customAndGeneric() throws SQLException {
    String ids = idArray();
    String sql = NamedStatements.load("io/taskq/postgres/sql/lease.sql", schema).get("heartbeat");
    for (String mode : List.of("force_custom_plan", "force_generic_plan")) {
      Explained beat =
          explain(
              mode,
              sql,
              "text, text, bigint, text[], integer, bigint[], bigint[], bigint, text",
              "'w1', 'host', 1, '{default}', 8, " + ids + ", " + tokenArray() + ", 30000, 'w1'");

      assertThat(beat.rows).as(mode).isEqualTo(RUNNING);
      assertThat(beat.plan).as(mode).contains("jobs_pkey");
      assertBounded(beat.plan, mode);
    }
  }

  private static Explained explainClaim(String mode, String queues, String actors)
      throws SQLException {
    return explain(
        mode,
        claimSql(),
        "text[], text[], integer, text, bigint",
        queues + ", " + actors + ", " + BATCH + ", 'w1', 30000");
  }

  private static void assertPickedByKey(Explained claim, String mode) {
    assertThat(claim.plan).as(mode).contains("Index Scan using jobs_pkey").contains("= ANY");
    assertBounded(claim.plan, mode);
    assertThat(claim.nested).as(mode).contains("Index Scan using jobs_claim_queue_idx");
    assertBounded(claim.nested, mode);
  }

  /** No sequential scan, no JIT, and no node reads or discards more than a few batches. */
  private static void assertBounded(String plan, String mode) {
    // claim_floor (V015) holds one row per (queue, actor) served: a sequential scan of it is the
    // right plan. Every other table, jobs first, is read by an index.
    assertThat(plan)
        .as(mode)
        .doesNotContainPattern("Seq Scan on (?!claim_floor )")
        .doesNotContain("JIT");
    assertThat(largest(ROWS, plan)).as(mode + ": rows of the largest node").isLessThan(4 * BATCH);
    assertThat(largest(REMOVED, plan))
        .as(mode + ": rows removed by a filter")
        .isLessThanOrEqualTo(BATCH);
  }

  private static long largest(Pattern pattern, String plan) {
    long max = 0;
    Matcher m = pattern.matcher(plan);
    while (m.find()) {
      long n = Long.parseLong(m.group(1));
      if (m.groupCount() > 1) {
        n *= Long.parseLong(m.group(2));
      }
      max = Math.max(max, n);
    }
    return max;
  }

  /** The ids of the running rows, inserted last. */
  private static String idArray() {
    return numbers((long) OTHER_PENDING + FINISHED + 2L * SERVED_PENDING + 1);
  }

  /** The running rows' lease tokens (n). */
  private static String tokenArray() {
    return numbers(1);
  }

  private static String numbers(long first) {
    StringBuilder ids = new StringBuilder("'{");
    for (int n = 0; n < RUNNING; n++) {
      ids.append(n == 0 ? "" : ",").append(first + n);
    }
    return ids.append("}'").toString();
  }

  private static String repeat(String value) {
    StringBuilder out = new StringBuilder("ARRAY[");
    for (int n = 0; n < RUNNING; n++) {
      out.append(n == 0 ? "" : ",").append(value);
    }
    return out.append("]").toString();
  }

  private record Explained(String plan, String nested, int rows) {}

  /**
   * Prepares {@code sql} as a server-side statement with the given parameter types, executes it
   * once under {@code EXPLAIN ANALYZE} with {@code args} in the given plan-cache mode, and rolls
   * everything back. The plans of statements run inside functions come back as auto_explain's log
   * messages, which PostgreSQL sends to this session only.
   */
  private static Explained explain(String mode, String sql, String types, String args)
      throws SQLException {
    try (Connection c = ds.getConnection()) {
      c.setAutoCommit(false);
      try (Statement s = c.createStatement()) {
        AutoExplain.enable(s);
        s.execute("SET LOCAL plan_cache_mode = " + mode);
        s.execute(PreparedSql.prepare("x1_plan", types, sql));
        s.clearWarnings();
        List<String> plan = new ArrayList<>();
        try (ResultSet rs = s.executeQuery("EXPLAIN (ANALYZE) EXECUTE x1_plan(" + args + ")")) {
          while (rs.next()) {
            plan.add(rs.getString(1));
          }
        }
        return new Explained(
            String.join("\n", plan), nested(s.getWarnings()), actualRows(plan.get(0)));
      } finally {
        c.rollback();
        try (Statement s = c.createStatement()) {
          s.execute("DEALLOCATE ALL");
        }
        c.setAutoCommit(true);
      }
    }
  }

  private static String nested(SQLWarning warning) {
    StringBuilder out = new StringBuilder();
    for (SQLWarning w = warning; w != null; w = w.getNextWarning()) {
      String text = w.getMessage();
      // The top-level statement's own plan is the EXPLAIN output; keep the nested ones.
      if (text != null && !text.contains("x1_plan")) {
        out.append(text).append('\n');
      }
    }
    return out.toString();
  }

  private static int actualRows(String topLine) {
    Matcher m = ROWS.matcher(topLine);
    return m.find() ? Integer.parseInt(m.group(1)) : -1;
  }
}
