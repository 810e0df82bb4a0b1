package io.taskq.postgres.internal.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.postgres.internal.maintenance.MaintenanceSettings;
import io.taskq.postgres.internal.maintenance.SweepCatalog;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@TaskQTest
@Tag("S9")
@Tag("L7")
class IdleKeyedRowSweepTest {
  private SweepFixture f;
  private StatementSweep sweep;

  @BeforeEach
  void freshSchema(TestServices services) {
    f = SweepFixture.fresh(services.dataSource(), services.schema());
    sweep = SweepCatalog.SWEEP_IDLE_KEYED_ROWS.batch(f.schema, Duration.ofHours(1));
  }

  private void slots(int n, String kind, String lastUsedAt, String leaseExpiresAt) {
    String holder = leaseExpiresAt.equals("NULL") ? "NULL, NULL" : "g + 1, g + 1";
    f.db.update(
        "INSERT INTO "
            + f.t("reservation_slots")
            + " (scope_kind, scope_name, slot, keyed, last_used_at, job_id, lease_token,"
            + " lease_expires_at)"
            + " SELECT ?, ? || g, 0, ? = 'key', "
            + lastUsedAt
            + ", "
            + holder
            + ", "
            + leaseExpiresAt
            + " FROM generate_series(1, ?) g",
        kind,
        kind + "-" + lastUsedAt.hashCode() + "-" + leaseExpiresAt.hashCode() + "-",
        kind,
        n);
  }

  private void buckets(int n, boolean keyed, String lastUsedAt) {
    f.db.update(
        "INSERT INTO "
            + f.t("rate_limit_buckets")
            + " (name, keyed, last_used_at) SELECT ? || g, ?, "
            + lastUsedAt
            + " FROM generate_series(1, ?) g",
        (keyed ? "keyed-" : "plain-") + lastUsedAt.hashCode() + "-",
        keyed,
        n);
  }

  @Test
  void deletesKeyedRowsUnusedPastThePeriod_andKeepsRecentAndUnkeyedOnes() {
    String idle = "now() - interval '1 hour 1 minute'";
    String recent = "now() - interval '59 minutes'";
    slots(1, "key", idle, "NULL");
    slots(1, "key", recent, "NULL");
    slots(1, "queue", idle, "NULL");
    slots(1, "actor", idle, "NULL");
    buckets(1, true, idle);
    buckets(1, true, recent);
    buckets(1, false, idle);

    assertThat(f.runBatch(sweep, 256)).isEqualTo(2);

    assertThat(f.count("reservation_slots", "keyed")).isEqualTo(1);
    assertThat(f.count("reservation_slots", "NOT keyed")).isEqualTo(2);
    assertThat(f.count("rate_limit_buckets", "keyed")).isEqualTo(1);
    assertThat(f.count("rate_limit_buckets", "NOT keyed")).isEqualTo(1);
    assertThat(f.count("job_events", "true")).isZero();
  }

  @Test
  void neverDeletesAKeyedSlotHeldUnderALiveLease_butDoesOneWhoseHolderDied() {
    String idle = "now() - interval '2 hours'";
    slots(1, "key", idle, "now() + interval '1 minute'");
    slots(1, "key", idle, "now() - interval '1 minute'");

    assertThat(f.runBatch(sweep, 256)).isEqualTo(1);
    assertThat(f.count("reservation_slots", "lease_expires_at > now()")).isEqualTo(1);
  }

  @Test
  @Tag("B1")
  void deletesAtMost256RowsPerTablePerTick() {
    String idle = "now() - interval '2 hours'";
    slots(300, "key", idle, "NULL");
    buckets(300, true, idle);

    assertThat(
            f.runBatch(
                sweep,
                SweepCatalog.SWEEP_IDLE_KEYED_ROWS.batchSize().of(MaintenanceSettings.defaults())))
        .isEqualTo(512);
    assertThat(f.count("reservation_slots", "true")).isEqualTo(44);
    assertThat(f.count("rate_limit_buckets", "true")).isEqualTo(44);
  }

  @Test
  void reportsEachTablesDeletions() throws Exception {
    String idle = "now() - interval '2 hours'";
    slots(3, "key", idle, "NULL");
    buckets(5, true, idle);

    try (var tx = f.ds.getConnection()) {
      tx.setAutoCommit(false);
      assertThat(sweep.runCounts(tx, 4)).isEqualTo(List.of(3, 4));
      tx.commit();
    }
    assertThat(f.count("rate_limit_buckets", "true")).isEqualTo(1);
  }

  @Test
  void aZeroPeriodDisablesTheSweep() {
    slots(2, "key", "now() - interval '3650 days'", "NULL");
    buckets(2, true, "now() - interval '3650 days'");

    assertThat(f.runBatch(SweepCatalog.SWEEP_IDLE_KEYED_ROWS.batch(f.schema, Duration.ZERO), 256))
        .isZero();
    assertThat(f.count("reservation_slots", "true")).isEqualTo(2);
    assertThat(f.count("rate_limit_buckets", "true")).isEqualTo(2);
  }

  @Test
  void publishesItsNameCadenceAndDefaultBatchSize() {
    assertThat(sweep.sweepName()).isEqualTo("sweep_idle_keyed_rows");
    assertThat(SweepCatalog.SWEEP_IDLE_KEYED_ROWS.cadence()).isEqualTo(Cadence.ONE_BATCH_PER_TICK);
    assertThat(SweepCatalog.SWEEP_IDLE_KEYED_ROWS.batchSize().of(MaintenanceSettings.defaults()))
        .isEqualTo(256);
  }
}
