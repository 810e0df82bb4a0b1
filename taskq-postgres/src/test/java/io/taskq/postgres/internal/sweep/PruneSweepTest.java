package io.taskq.postgres.internal.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskq.core.internal.AdvisoryLockName;
import io.taskq.postgres.internal.NamedStatements;
import io.taskq.postgres.internal.maintenance.MaintenanceSettings;
import io.taskq.postgres.internal.maintenance.SweepCatalog;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@TaskQTest
@Tag("S11")
class PruneSweepTest {
  /** A terminal job with every nullable column set, so an archived copy shows any dropped one. */
  private static final String FULL_COLUMNS =
      "priority, labels, attempt, deadline_at, locked_by, lock_expires_at, lease_token,"
          + " cancel_requested_at, unique_key, unique_until, result, result_expires_at,"
          + " error_class, error_message, error_stack, batch_id, started_at, finished_at";

  private static String fullValues(String finishedAt) {
    return "-2, '{\"team\": \"x\"}'::jsonb, 3, now() + interval '1 day', 'w-' || g,"
        + " now() - interval '2 days', 100 + g, now() - interval '3 days', 'k' || g,"
        + " now() + interval '1 hour', jsonb_build_object('n', g), now() + interval '9 days',"
        + " 'Boom', 'it broke', 'at line ' || g, 7, now() - interval '3 days', "
        + finishedAt;
  }

  private SweepFixture f;
  private StatementSweep sweep;

  @BeforeEach
  void freshSchema(TestServices services) {
    f = SweepFixture.fresh(services.dataSource(), services.schema());
    sweep = SweepCatalog.PRUNE.batch(f.schema, Duration.ofDays(1));
  }

  private void finished(int n, String status, String finishedAt) {
    f.insertJobs(n, status, FULL_COLUMNS, fullValues(finishedAt));
  }

  private List<Object> rows(String table, String drop) {
    return f.db.queryColumn(
        "SELECT (to_jsonb(t) - '" + drop + "')::text FROM " + f.t(table) + " t ORDER BY id");
  }

  @Test
  void movesTerminalJobsFinishedBeforePruneAfterToTheArchive_everyColumnIntact() {
    String old = "now() - interval '1 day 1 minute'";
    for (String status : List.of("succeeded", "failed", "crashed", "cancelled")) {
      finished(1, status, old);
    }
    List<Object> before = rows("jobs", "");
    finished(1, "succeeded", "now() - interval '23 hours 59 minutes'");
    f.insertJobs(1, "pending", "finished_at", old);
    f.insertJobs(1, "scheduled", "finished_at", old);

    assertThat(f.runBatch(sweep, 100)).isEqualTo(4);

    assertThat(rows("jobs_archive", "archived_at")).containsExactlyElementsOf(before);
    assertThat(f.db.queryColumn("SELECT status FROM " + f.t("jobs") + " ORDER BY id"))
        .containsExactly("succeeded", "pending", "scheduled");
    assertThat(f.count("job_events", "true")).isZero();
  }

  @Test
  void theArchiveHasEveryJobsColumn_andThePruneStatementNamesEachOne() {
    List<Object> jobs = columns("jobs");
    List<Object> archive = columns("jobs_archive");
    List<Object> expected = new ArrayList<>(jobs);
    expected.add("archived_at");
    assertThat(archive).containsExactlyElementsOf(expected);

    String statement =
        NamedStatements.load("io/taskq/postgres/sql/sweep/prune.sql", f.schema)
            .get("archive_finished_jobs");
    for (Object column : jobs) {
      assertThat(statement)
          .as("prune copies jobs.%s", column)
          .containsPattern("\\b" + column + "\\b");
    }
  }

  private List<Object> columns(String table) {
    return f.db.queryColumn(
        "SELECT column_name::text FROM information_schema.columns"
            + " WHERE table_schema = ? AND table_name = ? ORDER BY ordinal_position",
        f.schema.value(),
        table);
  }

  @Test
  @Tag("B4")
  void stampsArchivedAtFromTheClock_notTheTransactionsStart() throws Exception {
    finished(1, "succeeded", "now() - interval '2 days'");
    try (Connection tx = f.ds.getConnection()) {
      tx.setAutoCommit(false);
      assertThat(sweep.run(tx, 10)).isEqualTo(1);
      try (Statement s = tx.createStatement();
          ResultSet rs = s.executeQuery("SELECT archived_at > now() FROM " + f.t("jobs_archive"))) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getBoolean(1)).isTrue();
      }
      tx.rollback();
    }
  }

  @Test
  @Tag("B1")
  void drainsA250RowBacklogInBatchesOfTheBatchSize() {
    f.insertJobs(250, "succeeded", "finished_at", "now() - interval '2 days'");

    assertThat(f.drain(sweep, 100)).containsExactly(100, 100, 50, 0);
    assertThat(f.count("jobs", "true")).isZero();
    assertThat(f.count("jobs_archive", "true")).isEqualTo(250);
  }

  @Test
  @Tag("M1")
  void skipsWhileAnotherProcessHoldsThePruneLockOfTheSchema() throws Exception {
    f.insertJobs(3, "succeeded", "finished_at", "now() - interval '2 days'");
    String lockName = "taskq:prune:" + f.schema.value();
    assertThat(AdvisoryLockName.of(AdvisoryLockName.Purpose.PRUNE, f.schema).name())
        .isEqualTo(lockName);

    try (Connection other = f.ds.getConnection();
        PreparedStatement lock =
            other.prepareStatement(
                "SELECT pg_advisory_lock("
                    + String.format(AdvisoryLockName.SQL_KEY_EXPRESSION, "?")
                    + ")")) {
      lock.setString(1, lockName);
      lock.execute();

      assertThat(f.runBatch(sweep, 100)).isZero();
      assertThat(f.count("jobs", "true")).isEqualTo(3);

      try (Statement s = other.createStatement()) {
        s.execute("SELECT pg_advisory_unlock_all()");
      }
    }
    assertThat(f.runBatch(sweep, 100)).isEqualTo(3);
  }

  @Test
  @Tag("M1")
  void aConcurrentSecondPrunerSkips_untilTheFirstCommits() throws Exception {
    f.insertJobs(150, "succeeded", "finished_at", "now() - interval '2 days'");

    try (Connection first = f.ds.getConnection()) {
      first.setAutoCommit(false);
      assertThat(sweep.run(first, 100)).isEqualTo(100);

      assertThat(f.runBatch(sweep, 100)).as("the second pruner skips").isZero();
      assertThat(f.count("jobs_archive", "true")).isZero();

      first.commit();
    }
    assertThat(f.runBatch(sweep, 100)).isEqualTo(50);
    assertThat(f.count("jobs_archive", "true")).isEqualTo(150);
  }

  @Test
  void refusesAPruneAfterOfZero() {
    assertThatThrownBy(() -> SweepCatalog.PRUNE.batch(f.schema, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("TASKQ_PRUNE_AFTER")
        .hasMessageContaining("above zero");
  }

  @Test
  void publishesItsNameCadenceDefaultBatchSizeAndTime() {
    assertThat(sweep.sweepName()).isEqualTo("prune");
    assertThat(SweepCatalog.PRUNE.cadence()).isEqualTo(Cadence.DAILY);
    assertThat(SweepCatalog.PRUNE.batchSize().of(MaintenanceSettings.defaults())).isEqualTo(10_000);
    assertThat(SweepCatalog.PRUNE.daily().at(MaintenanceSettings.defaults())).hasToString("03:00");
  }
}
