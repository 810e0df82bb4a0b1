package io.taskq.postgres.internal.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
@Tag("S4")
@Tag("L7")
class LeakedReservationSlotSweepTest {
  private SweepFixture f;
  private StatementSweep sweep;

  @BeforeEach
  void freshSchema(TestServices services) {
    f = SweepFixture.fresh(services.dataSource(), services.schema());
    sweep = SweepCatalog.SWEEP_LEAKED_RESERVATION_SLOTS.batch(f.schema);
  }

  private void insertHeldSlots(int n, String scopeName, String leaseExpiresAt) {
    f.db.update(
        "INSERT INTO "
            + f.t("reservation_slots")
            + " (scope_kind, scope_name, slot, job_id, lease_token, lease_expires_at, keyed,"
            + " last_used_at)"
            + " SELECT 'queue', ?, g, g + 1, g + 1, "
            + leaseExpiresAt
            + ", false, now() - interval '1 hour' FROM generate_series(0, ? - 1) g",
        scopeName,
        n);
  }

  @Test
  void freesSlotsWhoseLeasePassed_andKeepsLiveLeasesAndTheRows() {
    insertHeldSlots(1, "expired", "now() - interval '1 second'");
    insertHeldSlots(1, "live", "now() + interval '1 minute'");
    f.db.update(
        "INSERT INTO "
            + f.t("reservation_slots")
            + " (scope_kind, scope_name, slot, keyed) VALUES ('queue', 'free', 0, false)");

    assertThat(f.runBatch(sweep, 100)).isEqualTo(1);

    assertThat(f.count("reservation_slots", "true")).isEqualTo(3);
    assertThat(
            f.count(
                "reservation_slots",
                "scope_name = 'expired' AND job_id IS NULL AND lease_token IS NULL"
                    + " AND lease_expires_at IS NULL"))
        .isEqualTo(1);
    assertThat(f.count("reservation_slots", "scope_name = 'live' AND job_id = 1")).isEqualTo(1);
    assertThat(
            f.count(
                "reservation_slots",
                "scope_name = 'expired' AND last_used_at < now() - interval '59 minutes'"))
        .as("freeing a slot is not a use: S9's idleness clock is left alone")
        .isEqualTo(1);
    assertThat(f.count("job_events", "true")).isZero();
  }

  @Test
  @Tag("B1")
  void drainsA250RowBacklogInBatchesOfTheBatchSize() {
    insertHeldSlots(250, "backlog", "now() - interval '1 minute'");

    assertThat(f.drain(sweep, 100)).containsExactly(100, 100, 50, 0);
    assertThat(f.count("reservation_slots", "job_id IS NOT NULL")).isZero();
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
                + f.t("reservation_slots")
                + " (scope_kind, scope_name, slot, job_id, lease_token, lease_expires_at, keyed)"
                + " VALUES ('actor', 'a', 0, 1, 1, clock_timestamp(), false)");
      }
      // now() is the transaction's start, before the lease expiry; statement_timestamp() is after.
      assertThat(sweep.run(tx, 10)).isEqualTo(1);
      tx.rollback();
    }
  }

  @Test
  void refusesABatchSizeBelowOne_andAConnectionOutsideATransaction() throws Exception {
    try (Connection c = f.ds.getConnection()) {
      c.setAutoCommit(false);
      assertThatThrownBy(() -> sweep.run(c, 0))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("sweep_leaked_reservation_slots")
          .hasMessageContaining("batch size must be at least 1, was 0");
      c.rollback();
      c.setAutoCommit(true);
      assertThatThrownBy(() -> sweep.run(c, 10))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("auto-commit");
    }
  }

  @Test
  void publishesItsNameCadenceAndDefaultBatchSize() {
    assertThat(sweep.sweepName()).isEqualTo("sweep_leaked_reservation_slots");
    assertThat(SweepCatalog.SWEEP_LEAKED_RESERVATION_SLOTS.cadence()).isEqualTo(Cadence.DRAINED);
    assertThat(
            SweepCatalog.SWEEP_LEAKED_RESERVATION_SLOTS
                .batchSize()
                .of(MaintenanceSettings.defaults()))
        .isEqualTo(100);
  }
}
