package io.taskq.postgres.internal.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.postgres.internal.maintenance.MaintenanceSettings;
import io.taskq.postgres.internal.maintenance.SweepCatalog;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@TaskQTest
@Tag("S5")
class ExpiredResultSweepTest {
  private SweepFixture f;
  private StatementSweep sweep;

  @BeforeEach
  void freshSchema(TestServices services) {
    f = SweepFixture.fresh(services.dataSource(), services.schema());
    sweep = SweepCatalog.SWEEP_EXPIRED_RESULTS.batch(f.schema);
  }

  private void insertResults(int n, String expiresAt) {
    f.insertJobs(
        n,
        "succeeded",
        "result, result_expires_at, finished_at",
        "'{\"answer\": 42}'::jsonb, " + expiresAt + ", now()");
  }

  @Test
  void nullsResultsWhoseExpiryPassed_andKeepsUnexpiredOnes() {
    insertResults(1, "now() - interval '1 second'");
    insertResults(1, "now() + interval '1 minute'");
    f.insertJobs(1, "succeeded", "result", "'{}'::jsonb");

    assertThat(f.runBatch(sweep, 100)).isEqualTo(1);

    assertThat(f.count("jobs", "result IS NULL")).isEqualTo(1);
    assertThat(f.count("jobs", "result IS NULL AND result_expires_at < now()"))
        .as("the expiry stays as the record of when the result lapsed")
        .isEqualTo(1);
    assertThat(f.count("jobs", "result IS NOT NULL")).isEqualTo(2);
    assertThat(f.count("job_events", "true")).isZero();
  }

  @Test
  @Tag("B1")
  void drainsA250RowBacklogInBatchesOfTheBatchSize() {
    insertResults(250, "now() - interval '1 minute'");

    assertThat(f.drain(sweep, 100)).containsExactly(100, 100, 50, 0);
    assertThat(f.count("jobs", "result IS NOT NULL")).isZero();
    assertThat(f.count("job_events", "true")).isZero();
  }

  @Test
  @Tag("B4")
  void selectsOnTheStatementsClock_notTheTransactionsStart() throws Exception {
    try (Connection tx = f.ds.getConnection()) {
      tx.setAutoCommit(false);
      try (Statement s = tx.createStatement()) {
        s.executeUpdate(
            "INSERT INTO "
                + f.t("jobs")
                + " ("
                + SweepFixture.JOB_COLUMNS
                + ", result, result_expires_at) VALUES ("
                + String.format(SweepFixture.JOB_VALUES, "succeeded")
                + ", '1'::jsonb, clock_timestamp())");
      }
      assertThat(sweep.run(tx, 10)).isEqualTo(1);
      tx.rollback();
    }
  }

  @Test
  void publishesItsNameCadenceAndDefaultBatchSize() {
    assertThat(sweep.sweepName()).isEqualTo("sweep_expired_results");
    assertThat(SweepCatalog.SWEEP_EXPIRED_RESULTS.cadence()).isEqualTo(Cadence.DRAINED);
    assertThat(SweepCatalog.SWEEP_EXPIRED_RESULTS.batchSize().of(MaintenanceSettings.defaults()))
        .isEqualTo(100);
  }
}
