package io.taskq.postgres.internal.operations;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.JobStatus;
import io.taskq.SchemaName;
import io.taskq.operations.JobFilter;
import io.taskq.postgres.internal.NamedStatements;
import io.taskq.postgres.internal.migrate.Migrations;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A1: the search, count and detail queries are index-backed at 1 000 000 jobs in the hot table plus
 * 500 000 in the archive. The rows are made by one {@code INSERT ... SELECT generate_series} per
 * table in this class's own schema, with a realistic mix (mostly succeeded, 20 actors, 5 queues, 10
 * error classes, 100 tenants, 200 running), then analysed and vacuumed. Each dashboard-shaped query
 * is EXPLAINed with its values bound, once as the custom plan and once forced generic (what a
 * cached prepared statement uses), and must read no table sequentially and use the named index.
 *
 * <p>{@link #benchmark_dashboardQueries} prints the p50 / p99 of each query at this size (a figure
 * for docs/benchmarks.md, asserted on nothing but the row counts).
 */
@TaskQTest
@Tag("A1")
class SearchPlanTest {
  private static final int HOT = 1_000_000;
  private static final int ARCHIVED = 500_000;

  private static DataSource dataSource;
  private static SchemaName schema;
  private static PostgresOperations ops;

  @BeforeAll
  static void fill(TestServices services) throws SQLException {
    dataSource = services.dataSource();
    schema = SchemaName.of(services.schema());
    Migrations.apply(dataSource, schema);
    long started = System.nanoTime();
    execute(
        "INSERT INTO {schema}.jobs (actor, queue, status, payload, labels, run_at, attempt,"
            + " max_attempts, retry_backoff, retry_base_ms, retry_cap_ms, retry_jitter,"
            + " error_class, error_message, created_at, finished_at)"
            + " SELECT 'actor-' || (n % 20), 'queue-' || (n % 5), s.status, '{}',"
            + "   jsonb_build_object('tenant', 't' || (n % 100)),"
            + "   now() - ("
            + HOT
            + " - n) * interval '100 ms', 1, 3, 'constant', 10, 10, 0,"
            + "   CASE WHEN s.status = 'failed' THEN 'Error' || (n % 10) END,"
            + "   CASE WHEN s.status = 'failed' THEN 'boom' END,"
            + "   now() - ("
            + HOT
            + " - n) * interval '100 ms',"
            + "   CASE WHEN s.status IN ('succeeded', 'failed', 'cancelled', 'crashed')"
            + "        THEN now() - ("
            + HOT
            + " - n) * interval '100 ms' + interval '1 s' END"
            + " FROM generate_series(1, "
            + HOT
            + ") AS n,"
            + " LATERAL (SELECT CASE WHEN n % 100 < 80 THEN 'succeeded' WHEN n % 100 < 88"
            + "   THEN 'failed' WHEN n % 100 < 96 THEN 'pending' WHEN n % 100 < 98 THEN 'scheduled'"
            + "   WHEN n % 100 < 99 THEN 'cancelled' ELSE 'crashed' END AS status) s");
    execute(
        "INSERT INTO {schema}.jobs_archive (id, actor, queue, status, payload, labels, run_at,"
            + " attempt, max_attempts, retry_backoff, retry_base_ms, retry_cap_ms, retry_jitter,"
            + " error_class, created_at, finished_at)"
            + " SELECT -n, 'actor-' || (n % 20), 'queue-' || (n % 5),"
            + "   CASE WHEN n % 10 = 0 THEN 'failed' ELSE 'succeeded' END,"
            + "   jsonb_build_object('body', repeat('x', 200)), '{}', now(), 1, 3,"
            + "   'constant', 10, 10, 0, CASE WHEN n % 10 = 0 THEN 'Error' || (n % 7) END,"
            + "   now() - interval '30 days', now() - interval '30 days'"
            + " FROM generate_series(1, "
            + ARCHIVED
            + ") AS n");
    execute(
        "INSERT INTO {schema}.job_attempts (job_id, attempt, outcome, error_class, finished_at)"
            + " SELECT id, 1, 'failed', error_class, finished_at FROM {schema}.jobs"
            + " WHERE status = 'failed'");
    execute(
        "INSERT INTO {schema}.job_events (job_id, kind, actor, queue, attempt, disposition,"
            + " occurred_at) SELECT id, 'failed', actor, queue, 1, 'failed', finished_at"
            + " FROM {schema}.jobs WHERE status = 'failed'");
    // A few hundred running jobs, as a worker's slots would hold (V013's running-state index).
    execute(
        "UPDATE {schema}.jobs SET status = 'running', locked_by = 'w' || (id % 4),"
            + " lock_expires_at = now() + interval '5 minutes', lease_token = id, started_at = now()"
            + " WHERE id IN (SELECT id FROM {schema}.jobs WHERE status = 'pending'"
            + " ORDER BY id DESC LIMIT 200)");
    execute("VACUUM (ANALYZE) {schema}.jobs");
    execute("VACUUM (ANALYZE) {schema}.jobs_archive");
    execute("ANALYZE {schema}.job_attempts");
    execute("ANALYZE {schema}.job_events");
    System.out.printf(
        "SearchPlanTest: %d hot + %d archived jobs made and analysed in %d ms%n",
        HOT, ARCHIVED, (System.nanoTime() - started) / 1_000_000);
    ops =
        new PostgresOperations(
            dataSource,
            schema,
            id -> java.util.Optional.empty(),
            io.taskq.postgres.internal.Handles.progress()
                .create(dataSource, schema, java.time.Duration.ofSeconds(1)),
            java.time.Duration.ofSeconds(30),
            100,
            java.time.Duration.ofSeconds(30));
  }

  private static void execute(String sql) throws SQLException {
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement()) {
      s.execute(NamedStatements.substitute(sql, schema));
    }
  }

  /** The dashboard's queries, by name: the filter and the index its plan must use. */
  private static Map<String, Case> cases() {
    Instant hourAgo = Instant.now().minusSeconds(3600);
    Map<String, Case> out = new LinkedHashMap<>();
    out.put(
        "failed, newest first",
        new Case(b().statuses(JobStatus.FAILED), "jobs_search_failures_idx", "jobs_pkey"));
    out.put(
        "failed or crashed",
        new Case(
            b().statuses(JobStatus.FAILED, JobStatus.CRASHED),
            "jobs_search_failures_idx",
            "jobs_pkey"));
    out.put("every job, newest first", new Case(b(), "jobs_pkey", "jobs_pkey"));
    out.put(
        "failed of one actor",
        new Case(
            b().statuses(JobStatus.FAILED).actors("actor-7"),
            "jobs_failures_actor_idx",
            "jobs_search_failures_idx"));
    out.put(
        "pending of one queue",
        new Case(
            b().statuses(JobStatus.PENDING).queues("queue-3"),
            "jobs_claim_queue_idx",
            "jobs_pkey"));
    // V013: every state is served by its own partial index or by the primary key walked backwards.
    out.put(
        "succeeded, newest first",
        new Case(b().statuses(JobStatus.SUCCEEDED), "jobs_terminal_idx", "jobs_pkey"));
    out.put(
        "pending, newest first",
        new Case(b().statuses(JobStatus.PENDING), "jobs_claim_queue_idx", "jobs_pkey"));
    out.put(
        "scheduled, newest first",
        new Case(b().statuses(JobStatus.SCHEDULED), "jobs_scheduled_idx", "jobs_pkey"));
    out.put(
        "running, newest first",
        new Case(b().statuses(JobStatus.RUNNING), "jobs_running_idx", "jobs_pkey"));
    out.put(
        "cancelled of one actor",
        new Case(
            b().statuses(JobStatus.CANCELLED).actors("actor-18"),
            "jobs_failures_actor_idx",
            "jobs_search_failures_idx"));
    out.put(
        "failed of one error class",
        new Case(b().errorClasses("Error3"), "jobs_search_error_idx", "jobs_pkey"));
    out.put(
        "failed of one tenant",
        new Case(
            b().statuses(JobStatus.FAILED).label("tenant", "t85"),
            "jobs_search_failures_idx",
            "jobs_pkey"));
    out.put(
        "failed in the last hour",
        new Case(
            b().statuses(JobStatus.FAILED).finishedBetween(hourAgo, null),
            "jobs_search_failures_idx",
            "jobs_pkey"));
    out.put(
        "failed, archive included",
        new Case(
            b().statuses(JobStatus.FAILED).includeArchived(),
            "jobs_archive_search_status_idx",
            "jobs_archive_pkey"));
    return out;
  }

  private static JobFilter.Builder b() {
    return JobFilter.builder();
  }

  /**
   * One query: its filter, and the indexes its plan may walk (the planner picks the status index or
   * the primary key backwards by their costs; both stop at the page).
   */
  private record Case(JobFilter.Builder filter, String index, String orIndex) {}

  /** A page of 50 may read at most this many rows it then throws away (2% of the table). */
  private static final long MAX_ROWS_FILTERED = 20_000;

  @ParameterizedTest
  @ValueSource(strings = {"auto", "force_generic_plan"})
  void searchQueries_useTheirIndex_andNeverScanATable(String planCacheMode) throws SQLException {
    for (Map.Entry<String, Case> e : cases().entrySet()) {
      SearchQuery query =
          SearchQuery.of(ops.statements(), e.getValue().filter().build(), Long.MAX_VALUE, 51);
      boolean analyse = planCacheMode.equals("auto");
      String plan =
          explain(
              planCacheMode,
              c -> query.prepare(c, analyse ? "EXPLAIN (ANALYZE, TIMING false) " : "EXPLAIN "));
      assertThat(plan).as(e.getKey() + "\n" + plan).doesNotContain("Seq Scan");
      assertThat(plan)
          .as(e.getKey() + "\n" + plan)
          .containsAnyOf(e.getValue().index(), e.getValue().orIndex());
      if (analyse) {
        assertThat(rowsFiltered(plan)).as(e.getKey() + "\n" + plan).isLessThan(MAX_ROWS_FILTERED);
      }
    }
  }

  /**
   * W2: a bulk action's preview count, bounded as the dashboard bounds it, is read from an index,
   * in the custom and the generic plan, and under EXPLAIN ANALYZE reads no more than the bound's
   * rows plus what its index filter throws away (the bounded count never walks the whole table).
   * The one case without a criterion any index holds, every job, may read the table itself: it
   * stops after the bound's rows.
   */
  @ParameterizedTest
  @ValueSource(strings = {"auto", "force_generic_plan"})
  @Tag("W2")
  void boundedCounts_useAnIndex_andStopAtTheBound(String planCacheMode) throws SQLException {
    for (Map.Entry<String, Case> e : cases().entrySet()) {
      JobFilter filter = e.getValue().filter().build();
      SearchQuery query = SearchQuery.countOf(ops.statements(), filter, COUNT_BOUND + 1);
      String plan =
          explain(planCacheMode, c -> query.prepare(c, "EXPLAIN (ANALYZE, TIMING false) "));
      boolean anyIndex = !filter.statuses().isEmpty() || !filter.errorClasses().isEmpty();
      if (anyIndex) {
        assertThat(plan).as(e.getKey() + "\n" + plan).doesNotContain("Seq Scan");
        assertThat(plan).as(e.getKey() + "\n" + plan).containsPattern("Index (Only )?Scan");
      }
      assertThat(rowsFiltered(plan)).as(e.getKey() + "\n" + plan).isLessThan(HOT / 2);
    }
  }

  /**
   * W2 (V014): the bounded count of one actor's failed jobs, a bulk retry's confirmation, reads
   * that actor's entries of {@code jobs_failures_actor_idx} by an index-only scan, in the custom
   * and the generic plan, and throws no entry away. Without the index (V013 alone) it read every
   * finished row's entry of {@code jobs_terminal_idx} filtered on status and actor (about 900 000
   * here, 226 ms against 2.6 ms).
   */
  @ParameterizedTest
  @ValueSource(strings = {"auto", "force_generic_plan"})
  @Tag("W2")
  void boundedCountOfOneActorsFailures_readsThatActorsEntriesOnly(String planCacheMode)
      throws SQLException {
    for (JobStatus status : new JobStatus[] {JobStatus.FAILED, JobStatus.CANCELLED}) {
      JobFilter filter = b().statuses(status).actors("actor-7").build();
      SearchQuery query = SearchQuery.countOf(ops.statements(), filter, COUNT_BOUND + 1);
      String plan =
          explain(planCacheMode, c -> query.prepare(c, "EXPLAIN (ANALYZE, TIMING false) "));
      assertThat(plan)
          .as(status + "\n" + plan)
          .contains("Index Only Scan using jobs_failures_actor_idx")
          .containsPattern("Index Cond: \\(\\(status = '[a-z]+'::text\\) AND \\(actor = ");
      assertThat(rowsFiltered(plan)).as(status + "\n" + plan).isZero();
    }
  }

  /** The dashboard's bound on a bulk action's preview count (BulkActions.PREVIEW_BOUND). */
  private static final int COUNT_BOUND = 100_000;

  @ParameterizedTest
  @ValueSource(strings = {"auto", "force_generic_plan"})
  void countsAndDetail_useTheirIndex(String planCacheMode) throws SQLException {
    // V013: the hot table's counts read each state's partial index, the finished rows (most of
    // them) and the pending ones by index-only scans; no index of every row is needed.
    String counts = ops.statements().get("counts");
    assertPlan(planCacheMode, counts, "Index Only Scan using jobs_terminal_idx");
    assertPlan(planCacheMode, counts, "Index Only Scan using jobs_claim_queue_idx");
    assertPlan(planCacheMode, counts, "jobs_scheduled_idx");
    assertPlan(planCacheMode, counts, "jobs_running_idx");
    assertPlan(
        planCacheMode,
        ops.statements().get("counts_archive"),
        "Index Only Scan",
        "jobs_archive_search_counts_idx");
    assertPlan(planCacheMode, ops.statements().get("attempts"), "job_attempts_job_idx", 12L);
    assertPlan(planCacheMode, ops.statements().get("events"), "job_events_job_idx", 12L);
  }

  private static long rowsFiltered(String plan) {
    long sum = 0;
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("Rows Removed by Filter: (\\d+)").matcher(plan);
    while (m.find()) {
      sum += Long.parseLong(m.group(1));
    }
    return sum;
  }

  private void assertPlan(String mode, String sql, String expected, Object... binds)
      throws SQLException {
    String plan =
        explain(
            mode,
            c -> {
              PreparedStatement ps = c.prepareStatement("EXPLAIN " + sql);
              for (int i = 0; i < binds.length; i++) {
                ps.setObject(i + 1, binds[i]);
              }
              return ps;
            });
    assertThat(plan).as(plan).doesNotContain("Seq Scan").contains(expected);
  }

  private void assertPlan(String mode, String sql, String node, String index) throws SQLException {
    assertPlan(mode, sql, node);
    assertPlan(mode, sql, index);
  }

  private static String explain(String mode, PostgresOperations.Prepare prepare)
      throws SQLException {
    try (Connection c = dataSource.getConnection()) {
      try (Statement s = c.createStatement()) {
        s.execute("SET plan_cache_mode = " + mode);
      }
      try (PreparedStatement ps = prepare.on(c);
          ResultSet rs = ps.executeQuery()) {
        StringBuilder plan = new StringBuilder();
        while (rs.next()) {
          plan.append(rs.getString(1)).append('\n');
        }
        return plan.toString();
      } finally {
        try (Statement s = c.createStatement()) {
          s.execute("RESET plan_cache_mode");
        }
      }
    }
  }

  @Test
  void benchmark_dashboardQueries() throws SQLException {
    int runs = 50;
    for (Map.Entry<String, Case> e : cases().entrySet()) {
      JobFilter filter = e.getValue().filter().build();
      long[] nanos = new long[runs];
      for (int i = 0; i < runs; i++) {
        long started = System.nanoTime();
        assertThat(ops.search(filter, 50).jobs()).isNotEmpty();
        nanos[i] = System.nanoTime() - started;
      }
      print("search: " + e.getKey(), nanos);
    }
    long[] nanos = new long[20];
    for (int i = 0; i < nanos.length; i++) {
      long started = System.nanoTime();
      assertThat(ops.counts().total()).isEqualTo(HOT);
      nanos[i] = System.nanoTime() - started;
    }
    print("counts (hot table)", nanos);
    for (Map.Entry<String, Case> e : cases().entrySet()) {
      JobFilter filter = e.getValue().filter().build();
      long[] counted = new long[10];
      for (int i = 0; i < counted.length; i++) {
        long started = System.nanoTime();
        assertThat(ops.count(filter, COUNT_BOUND).count()).isPositive();
        counted[i] = System.nanoTime() - started;
      }
      print("count to " + COUNT_BOUND + ": " + e.getKey(), counted);
    }
  }

  private static void print(String name, long[] nanos) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    System.out.printf(
        "A1 benchmark at %d jobs: %-40s p50 %7.2f ms  p99 %7.2f ms%n",
        HOT,
        name,
        sorted[sorted.length / 2] / 1e6,
        sorted[Math.min(sorted.length - 1, (int) Math.ceil(sorted.length * 0.99) - 1)] / 1e6);
  }
}
