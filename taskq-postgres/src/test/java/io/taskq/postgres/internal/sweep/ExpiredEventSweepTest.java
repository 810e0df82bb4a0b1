package io.taskq.postgres.internal.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskq.postgres.internal.maintenance.MaintenanceSettings;
import io.taskq.postgres.internal.maintenance.SweepCatalog;
import io.taskq.postgres.internal.maintenance.SweepKnobs;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@TaskQTest
@Tag("S8")
class ExpiredEventSweepTest {
  private SweepFixture f;
  private StatementSweep sweep;

  @BeforeEach
  void freshSchema(TestServices services) {
    f = SweepFixture.fresh(services.dataSource(), services.schema());
    sweep = SweepCatalog.SWEEP_EXPIRED_EVENTS.batch(f.schema, Duration.ofHours(1));
  }

  private void events(int n, String kind, String occurredAt) {
    f.db.update(
        "INSERT INTO "
            + f.t("job_events")
            + " (job_id, kind, actor, queue, attempt, occurred_at)"
            + " SELECT g, ?, 'a', 'q', 1, "
            + occurredAt
            + " FROM generate_series(1, ?) g",
        kind,
        n);
  }

  /** One event with a chosen id and writer xid (the feed position of D12). */
  private void eventAt(long eventId, long writerXid, String kind, String occurredAt) {
    f.db.update(
        "INSERT INTO "
            + f.t("job_events")
            + " (event_id, job_id, kind, actor, queue, attempt, occurred_at, writer_xid)"
            + " OVERRIDING SYSTEM VALUE VALUES (?, 1, ?, 'a', 'q', 1, "
            + occurredAt
            + ", ?::text::xid8)",
        eventId,
        kind,
        Long.toString(writerXid));
  }

  private long watermark() {
    return f.db.queryLong(
        "SELECT value FROM " + f.t("maintenance_state") + " WHERE key = 'event_prune_watermark'");
  }

  private String reclaimWatermark() {
    return (String)
        f.db
            .queryColumn(
                "SELECT writer_xid::text || '/' || value FROM "
                    + f.t("maintenance_state")
                    + " WHERE key = 'reclaim_event_prune_watermark'")
            .get(0);
  }

  @Test
  void deletesEventsOlderThanTheRetention_whateverTheirJobsStatus() {
    f.insertJobs(1, "pending", "", "");
    f.insertJobs(
        1,
        "running",
        "locked_by, lock_expires_at, lease_token",
        "'w', now() + interval '1 hour', 1");
    // Events of job 1 (pending), job 2 (running) and of jobs that no longer exist.
    events(5, "enqueued", "now() - interval '1 hour 1 minute'");
    events(3, "failed", "now() - interval '59 minutes'");

    assertThat(f.runBatch(sweep, 10_000)).isEqualTo(5);

    assertThat(f.count("job_events", "true")).isEqualTo(3);
    assertThat(f.count("job_events", "occurred_at < now() - interval '1 hour'")).isZero();
  }

  @Test
  void keepsTheCrashReclaimSliceTo100TimesTheRetention() {
    events(1, "reclaimed", "now() - interval '2 hours'");
    events(1, "reclaimed", "now() - interval '99 hours 59 minutes'");
    events(1, "reclaimed", "now() - interval '100 hours 1 minute'");
    events(1, "succeeded", "now() - interval '2 hours'");

    assertThat(f.runBatch(sweep, 10_000)).isEqualTo(2);

    assertThat(f.count("job_events", "kind = 'reclaimed'")).isEqualTo(2);
    assertThat(f.count("job_events", "kind <> 'reclaimed'")).isZero();
  }

  @Test
  @Tag("E2")
  void stampsTheEventWatermark_onlyUpwards() {
    events(3, "succeeded", "now() - interval '2 hours'");
    f.runBatch(sweep, 10_000);
    assertThat(watermark()).isEqualTo(3);

    // An old event below the watermark (an id reused on purpose) is deleted; the mark stays.
    eventAt(1, 1, "succeeded", "now() - interval '2 hours'");
    assertThat(f.runBatch(sweep, 10_000)).isEqualTo(1);
    assertThat(watermark()).isEqualTo(3);

    events(1, "succeeded", "now() - interval '2 hours'");
    f.runBatch(sweep, 10_000);
    assertThat(watermark()).isEqualTo(4);
  }

  @Test
  @Tag("E2")
  void stampsTheReclaimFeedWatermarkInFeedOrder_onlyUpwards() {
    String old = "now() - interval '101 hours'";
    eventAt(10, 500, "reclaimed", old);
    eventAt(20, 400, "reclaimed", old);
    f.runBatch(sweep, 10_000);
    // The feed orders by writer xid first (D12): (500, 10) is past (400, 20).
    assertThat(reclaimWatermark()).isEqualTo("500/10");

    eventAt(30, 450, "reclaimed", old);
    f.runBatch(sweep, 10_000);
    assertThat(reclaimWatermark()).isEqualTo("500/10");

    eventAt(5, 600, "reclaimed", old);
    eventAt(40, 1, "succeeded", old);
    f.runBatch(sweep, 10_000);
    assertThat(reclaimWatermark())
        .as("only deleted reclaimed rows move the reclaim watermark")
        .isEqualTo("600/5");
    assertThat(watermark()).isEqualTo(40);
  }

  @Test
  @Tag("E2")
  void aRolledBackBatchDeletesNothing_andLeavesTheWatermarkWhereItWas() throws Exception {
    events(3, "reclaimed", "now() - interval '101 hours'");
    try (Connection tx = f.ds.getConnection()) {
      tx.setAutoCommit(false);
      assertThat(sweep.run(tx, 10_000)).isEqualTo(3);
      tx.rollback();
    }

    assertThat(f.count("job_events", "true")).isEqualTo(3);
    assertThat(watermark()).isZero();
    assertThat(reclaimWatermark()).isEqualTo("0/0");
  }

  @Test
  void aZeroRetentionDisablesTheSweep() {
    events(5, "succeeded", "now() - interval '3650 days'");
    StatementSweep disabled = SweepCatalog.SWEEP_EXPIRED_EVENTS.batch(f.schema, Duration.ZERO);

    assertThat(f.runBatch(disabled, 10_000)).isZero();
    assertThat(f.count("job_events", "true")).isEqualTo(5);
    assertThat(watermark()).isZero();
  }

  @Test
  @Tag("B1")
  void deletesAtMostTheBatchSizePerCall_250RowsTakeThreeTicks() {
    events(250, "succeeded", "now() - interval '2 hours'");

    assertThat(f.runBatch(sweep, 100)).isEqualTo(100);
    assertThat(f.count("job_events", "true")).isEqualTo(150);
    assertThat(f.drain(sweep, 100)).containsExactly(100, 50, 0);
  }

  @Test
  void spendsTheBatchOnOtherKindsFirst_thenOnTheReclaimSlice() {
    events(80, "succeeded", "now() - interval '2 hours'");
    events(50, "reclaimed", "now() - interval '101 hours'");

    assertThat(f.runBatch(sweep, 100)).isEqualTo(100);
    assertThat(f.count("job_events", "kind = 'succeeded'")).isZero();
    assertThat(f.count("job_events", "kind = 'reclaimed'")).isEqualTo(30);
  }

  @Test
  @Tag("B4")
  void selectsOnTheStatementsClock_notTheTransactionsStart() throws Exception {
    try (Connection tx = f.ds.getConnection()) {
      tx.setAutoCommit(false);
      try (Statement s = tx.createStatement()) {
        s.executeUpdate(
            "INSERT INTO "
                + f.t("job_events")
                + " (job_id, kind, actor, queue, attempt, occurred_at)"
                + " VALUES (1, 'succeeded', 'a', 'q', 1, clock_timestamp() - interval '1 hour')");
      }
      assertThat(sweep.run(tx, 10)).isEqualTo(1);
      tx.rollback();
    }
  }

  @Test
  void refusesANegativeOrOverlongRetention() {
    for (Duration bad : List.of(Duration.ofSeconds(-1), Duration.ofDays(36_501))) {
      assertThatThrownBy(() -> SweepCatalog.SWEEP_EXPIRED_EVENTS.batch(f.schema, bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("TASKQ_EVENT_RETENTION_PERIOD")
          .hasMessageContaining("between 0 and 36500 days")
          .hasMessageContaining(bad.toString());
    }
  }

  @Test
  void publishesItsNameCadenceAndDefaultBatchSize() {
    assertThat(sweep.sweepName()).isEqualTo("sweep_expired_events");
    assertThat(SweepCatalog.SWEEP_EXPIRED_EVENTS.cadence()).isEqualTo(Cadence.ONE_BATCH_PER_TICK);
    assertThat(SweepCatalog.SWEEP_EXPIRED_EVENTS.batchSize().of(MaintenanceSettings.defaults()))
        .isEqualTo(10_000);
    assertThat(SweepKnobs.defaults().eventRetentionPeriod()).isEqualTo(Duration.ofDays(7));
  }
}
