package io.taskq.postgres.internal.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.JobRequest;
import io.taskq.JobsClient;
import io.taskq.SchemaName;
import io.taskq.TestHandles;
import io.taskq.core.internal.NotifyChannels;
import io.taskq.postgres.internal.NamedStatements;
import io.taskq.postgres.internal.migrate.Migrations;
import io.taskq.postgres.testing.Db;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Pins which index each client query uses, as {@code docs/architecture.md} states, with {@code
 * EXPLAIN} on a table with enough rows (and fresh statistics) that a sequential scan would lose.
 * The worker's claim, heartbeat and sweep queries belong here too.
 */
@TaskQTest
class IndexUsageTest {
  private static SchemaName schema;
  private static DataSource ds;

  @BeforeAll
  static void fill(TestServices services) {
    schema = SchemaName.of(services.schema());
    ds = services.dataSource();
    Migrations.apply(ds, schema);
    JobsClient client = TestHandles.jobs(ds, schema);
    client.enqueueAll(
        IntStream.range(0, 20_000)
            .mapToObj(
                i ->
                    i % 4 == 0
                        ? JobRequest.builder("report")
                            .uniqueFor(Duration.ofHours(1), "key-" + i)
                            .build()
                        : JobRequest.builder("mail").delay(Duration.ofSeconds(i % 7)).build())
            .toList());
    new Db(ds).execute("ANALYZE " + schema.quoted() + ".jobs");
  }

  @Test
  void find_usesThePrimaryKeysOfJobsAndArchive() throws SQLException {
    String plan = explain(jobs().get("find"), 42L, 42L);

    assertThat(plan).contains("jobs_pkey").contains("jobs_archive_pkey").doesNotContain("Seq Scan");
  }

  @Test
  void cancel_usesThePrimaryKey() throws SQLException {
    // Binds: the job id, who cancels, the worker channel prefix, the wake channel.
    String plan =
        explain(
            jobs().get("cancel"), 42L, "ops", "taskq_worker_0123456789_", "taskq_wake_0123456789");

    assertThat(plan).contains("Index Scan using jobs_pkey").doesNotContain("Seq Scan on jobs");
  }

  @Test
  void uniqueTwinLookup_usesTheUniqueIndex() throws SQLException {
    NamedStatements enqueue = NamedStatements.load("io/taskq/postgres/sql/enqueue.sql", schema);
    List<JobRequest> rows =
        List.of(JobRequest.builder("report").uniqueFor(Duration.ofHours(1), "key-8").build());
    String plan;
    try (Connection c = ds.getConnection();
        PreparedStatement ps = c.prepareStatement("EXPLAIN " + enqueue.get("insert_jobs"))) {
      new EnqueueColumns(rows).bind(ps);
      ps.setString(EnqueueColumns.PARAMETERS + 1, NotifyChannels.of(schema).wake().name());
      plan = read(ps);
    }

    assertThat(plan).contains("jobs_unique_idx").doesNotContain("Seq Scan on jobs");
  }

  /**
   * The single-set insert keeps input order without a sort (the ordinality scan is known to be
   * ordered) and without a join that rescans the options per row, in a custom and in a generic plan
   * alike: what a prepared statement gets after a few executions.
   */
  @Test
  void oneSetInsert_scansThePayloadsInOrder_withoutSortOrJoin() throws SQLException {
    NamedStatements enqueue = NamedStatements.load("io/taskq/postgres/sql/enqueue.sql", schema);
    List<JobRequest> rows =
        List.of(JobRequest.of("report", "{\"n\": 1}"), JobRequest.of("report", "{\"n\": 2}"));
    for (String mode : List.of("force_custom_plan", "force_generic_plan")) {
      String plan;
      try (Connection c = ds.getConnection()) {
        try (Statement s = c.createStatement()) {
          s.execute("SET plan_cache_mode = " + mode);
        }
        try (PreparedStatement ps =
            c.prepareStatement("EXPLAIN " + enqueue.get("insert_jobs_one_set"))) {
          EnqueueColumns columns = new EnqueueColumns(rows);
          assertThat(columns.oneSetWithoutUniqueKey()).isTrue();
          columns.bindOneSet(ps, NotifyChannels.of(schema).wake().name());
          plan = read(ps);
        } finally {
          try (Statement s = c.createStatement()) {
            s.execute("RESET plan_cache_mode");
          }
        }
      }

      assertThat(plan)
          .as(mode)
          .contains("Function Scan on unnest r")
          .doesNotContain("Sort")
          .doesNotContain("Nested Loop");
    }
  }

  private static NamedStatements jobs() {
    return NamedStatements.load("io/taskq/postgres/sql/jobs.sql", schema);
  }

  private static String explain(String sql, Object... binds) throws SQLException {
    try (Connection c = ds.getConnection();
        PreparedStatement ps = c.prepareStatement("EXPLAIN " + sql)) {
      for (int i = 0; i < binds.length; i++) {
        ps.setObject(i + 1, binds[i]);
      }
      return read(ps);
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
