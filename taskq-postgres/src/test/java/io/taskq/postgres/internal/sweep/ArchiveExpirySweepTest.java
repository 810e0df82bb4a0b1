package io.taskq.postgres.internal.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.core.internal.AdvisoryLockName;
import io.taskq.postgres.internal.maintenance.MaintenanceSettings;
import io.taskq.postgres.internal.maintenance.SweepCatalog;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@TaskQTest
@Tag("S11")
class ArchiveExpirySweepTest {
  private SweepFixture f;
  private StatementSweep sweep;

  @BeforeEach
  void freshSchema(TestServices services) {
    f = SweepFixture.fresh(services.dataSource(), services.schema());
    sweep = SweepCatalog.ARCHIVE_EXPIRY.batch(f.schema, Duration.ofDays(30));
  }

  private void archived(int n, String archivedAt) {
    f.db.update(
        "INSERT INTO "
            + f.t("jobs_archive")
            + " (id, "
            + SweepFixture.JOB_COLUMNS
            + ", finished_at, archived_at)"
            + " SELECT (SELECT coalesce(max(id), 0) FROM "
            + f.t("jobs_archive")
            + ") + g, "
            + String.format(SweepFixture.JOB_VALUES, "succeeded")
            + ", now(), "
            + archivedAt
            + " FROM generate_series(1, ?) g",
        n);
  }

  @Test
  void deletesArchiveRowsArchivedBeforeTheRetention_andKeepsNewerOnes() {
    archived(2, "now() - interval '30 days 1 minute'");
    archived(1, "now() - interval '29 days 23 hours'");

    assertThat(f.runBatch(sweep, 100)).isEqualTo(2);
    assertThat(f.count("jobs_archive", "true")).isEqualTo(1);
    assertThat(f.count("job_events", "true")).isZero();
  }

  @Test
  @Tag("B1")
  void drainsA250RowBacklogInBatchesOfTheBatchSize() {
    archived(250, "now() - interval '31 days'");

    assertThat(f.drain(sweep, 100)).containsExactly(100, 100, 50, 0);
    assertThat(f.count("jobs_archive", "true")).isZero();
  }

  @Test
  @Tag("M1")
  void skipsWhileAnotherProcessHoldsTheArchiveExpiryLockOfTheSchema() throws Exception {
    archived(3, "now() - interval '31 days'");
    try (Connection other = f.ds.getConnection()) {
      other.setAutoCommit(false);
      try (PreparedStatement lock =
          other.prepareStatement(
              "SELECT pg_advisory_xact_lock("
                  + String.format(AdvisoryLockName.SQL_KEY_EXPRESSION, "?")
                  + ")")) {
        lock.setString(1, "taskq:archive_expiry:" + f.schema.value());
        lock.execute();
      }

      assertThat(f.runBatch(sweep, 100)).isZero();
      assertThat(f.count("jobs_archive", "true")).isEqualTo(3);
      other.rollback();
    }
    assertThat(f.runBatch(sweep, 100)).isEqualTo(3);
  }

  @Test
  void publishesItsNameCadenceDefaultBatchSizeAndTime() {
    assertThat(sweep.sweepName()).isEqualTo("archive_expiry");
    assertThat(SweepCatalog.ARCHIVE_EXPIRY.cadence()).isEqualTo(Cadence.DAILY);
    assertThat(SweepCatalog.ARCHIVE_EXPIRY.batchSize().of(MaintenanceSettings.defaults()))
        .isEqualTo(10_000);
    assertThat(SweepCatalog.ARCHIVE_EXPIRY.daily().at(MaintenanceSettings.defaults()))
        .hasToString("04:00");
  }
}
