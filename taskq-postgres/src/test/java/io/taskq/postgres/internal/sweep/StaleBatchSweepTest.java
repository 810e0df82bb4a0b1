package io.taskq.postgres.internal.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.postgres.internal.maintenance.MaintenanceSettings;
import io.taskq.postgres.internal.maintenance.SweepCatalog;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@TaskQTest
@Tag("S7")
@Tag("L9")
class StaleBatchSweepTest {
  private SweepFixture f;
  private StatementSweep sweep;

  @BeforeEach
  void freshSchema(TestServices services) {
    f = SweepFixture.fresh(services.dataSource(), services.schema());
    sweep = SweepCatalog.COMPLETE_STALE_BATCHES.batch(f.schema);
  }

  private long batch(int total, boolean withHook) {
    return f.db.queryLong(
        "INSERT INTO "
            + f.t("batches")
            + (withHook
                ? " (total, hook_actor, hook_queue, hook_priority, hook_payload, hook_max_attempts)"
                    + " VALUES (?, 'on_done', 'hooks', 3, '{\"k\": 1}'::jsonb, 5)"
                : " (total) VALUES (?)")
            + " RETURNING id",
        total);
  }

  private void members(long batchId, String status, int n) {
    f.insertJobs(n, status, "batch_id", Long.toString(batchId));
  }

  /** {@code n} hooked batches of one succeeded member each, in one statement. */
  private void singleMemberBatches(int n) {
    f.db.update(
        "WITH b AS (INSERT INTO "
            + f.t("batches")
            + " (total, hook_actor, hook_queue) SELECT 1, 'on_done', 'hooks'"
            + " FROM generate_series(1, ?) RETURNING id)"
            + " INSERT INTO "
            + f.t("jobs")
            + " ("
            + SweepFixture.JOB_COLUMNS
            + ", batch_id) SELECT "
            + String.format(SweepFixture.JOB_VALUES, "succeeded")
            + ", b.id FROM b",
        n);
  }

  private long hookJobs() {
    return f.count("jobs", "actor = 'on_done'");
  }

  @Test
  void completesABatchWhoseMembersAreAllTerminal_andEnqueuesItsHookWithTheCounts() {
    long id = batch(4, true);
    members(id, "succeeded", 1);
    members(id, "failed", 1);
    members(id, "crashed", 1);
    members(id, "cancelled", 1);

    assertThat(f.runBatch(sweep, 100)).isEqualTo(1);

    assertThat(
            f.count(
                "batches",
                "id = "
                    + id
                    + " AND status = 'completed' AND succeeded = 1 AND failed = 2"
                    + " AND cancelled = 1 AND completed_at IS NOT NULL"
                    + " AND hook_enqueued_at IS NOT NULL"))
        .isEqualTo(1);
    String expectedPayload =
        "{\"batch_id\": "
            + id
            + ", \"total\": 4, \"succeeded\": 1, \"failed\": 2, \"cancelled\": 1,"
            + " \"payload\": {\"k\": 1}}";
    assertThat(
            f.db.queryLong(
                "SELECT count(*) FROM "
                    + f.t("jobs")
                    + " j JOIN "
                    + f.t("batches")
                    + " b ON b.hook_job_id = j.id"
                    + " WHERE j.actor = 'on_done' AND j.queue = 'hooks' AND j.status = 'pending'"
                    + " AND j.priority = 3 AND j.max_attempts = 5 AND j.batch_id IS NULL"
                    + " AND j.payload = ?::jsonb",
                expectedPayload))
        .isEqualTo(1);
    assertThat(f.count("job_events", "true")).isZero();
  }

  @Test
  void leavesABatchWithAMemberNotYetTerminal() {
    for (String open : List.of("scheduled", "pending")) {
      long id = batch(2, true);
      members(id, "succeeded", 1);
      members(id, open, 1);
    }
    long running = batch(2, true);
    members(running, "succeeded", 1);
    f.insertJobs(
        1,
        "running",
        "batch_id, locked_by, lock_expires_at, lease_token",
        running + ", 'w', now() + interval '1 minute', 1");

    assertThat(f.runBatch(sweep, 100)).isZero();
    assertThat(f.count("batches", "status = 'active'")).isEqualTo(3);
    assertThat(hookJobs()).isZero();
  }

  @Test
  void leavesABatchWithFewerTerminalMembersThanItsTotal() {
    long id = batch(3, true);
    members(id, "succeeded", 2);

    assertThat(f.runBatch(sweep, 100)).isZero();
    assertThat(hookJobs()).isZero();
  }

  @Test
  void batchesShortOfTheirTotalNeverCrowdACompletableBatchOutOfTheLimit() {
    for (int i = 0; i < 3; i++) {
      members(batch(5, true), "succeeded", 1);
    }
    long completable = batch(1, true);
    members(completable, "succeeded", 1);

    assertThat(f.runBatch(sweep, 2)).isEqualTo(1);
    assertThat(f.count("batches", "status = 'completed' AND id = " + completable)).isEqualTo(1);
  }

  @Test
  void countsMembersThatPruneAlreadyArchived() {
    long id = batch(3, true);
    members(id, "succeeded", 1);
    f.db.update(
        "INSERT INTO "
            + f.t("jobs_archive")
            + " (id, "
            + SweepFixture.JOB_COLUMNS
            + ", batch_id) SELECT 1000 + g, "
            + String.format(SweepFixture.JOB_VALUES, "failed")
            + ", ? FROM generate_series(1, 2) g",
        id);

    assertThat(f.runBatch(sweep, 100)).isEqualTo(1);
    assertThat(
            f.count(
                "batches",
                "status = 'completed' AND succeeded = 1 AND failed = 2 AND cancelled = 0"))
        .isEqualTo(1);
  }

  @Test
  void completesABatchWithoutAHook_withoutEnqueuingAJob() {
    long id = batch(1, false);
    members(id, "succeeded", 1);

    assertThat(f.runBatch(sweep, 100)).isEqualTo(1);
    assertThat(
            f.count(
                "batches",
                "status = 'completed' AND hook_job_id IS NULL AND hook_enqueued_at IS NULL"))
        .isEqualTo(1);
    assertThat(f.count("jobs", "true")).isEqualTo(1);
  }

  @Test
  void skipsABatchAlreadyCompleted() {
    long id = batch(1, true);
    members(id, "succeeded", 1);
    f.db.update(
        "UPDATE " + f.t("batches") + " SET status = 'completed', completed_at = now() WHERE id = ?",
        id);

    assertThat(f.runBatch(sweep, 100)).isZero();
    assertThat(hookJobs()).isZero();
  }

  @Test
  @Tag("B1")
  void drainsA250BatchBacklogInBatchesOfTheBatchSize() {
    singleMemberBatches(250);

    assertThat(f.drain(sweep, 100)).containsExactly(100, 100, 50, 0);
    assertThat(hookJobs()).isEqualTo(250);
  }

  @Test
  void aSecondTransactionSkipsTheBatchTheFirstHoldsLocked_soTheHookFiresOnce() throws Exception {
    long id = batch(1, true);
    members(id, "succeeded", 1);

    try (Connection first = f.ds.getConnection()) {
      first.setAutoCommit(false);
      assertThat(sweep.run(first, 100)).isEqualTo(1);
      // The first transaction holds the batch row; the second steps over it.
      assertThat(f.runBatch(sweep, 100)).isZero();
      first.commit();
    }
    assertThat(f.runBatch(sweep, 100)).isZero();
    assertThat(hookJobs()).isEqualTo(1);
  }

  @Test
  void racingSweeps_fireEveryHookExactlyOnce() throws Exception {
    int batches = 200;
    singleMemberBatches(batches);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<Integer>> racers = new ArrayList<>();
      for (int r = 0; r < 4; r++) {
        racers.add(
            pool.submit(
                () -> {
                  start.await();
                  return f.drain(sweep, 7).stream().mapToInt(Integer::intValue).sum();
                }));
      }
      start.countDown();
      int completed = 0;
      for (Future<Integer> racer : racers) {
        completed += racer.get(60, TimeUnit.SECONDS);
      }

      assertThat(completed).isEqualTo(batches);
      assertThat(hookJobs()).isEqualTo(batches);
      assertThat(
              f.db.queryLong(
                  "SELECT count(DISTINCT payload ->> 'batch_id') FROM "
                      + f.t("jobs")
                      + " WHERE actor = 'on_done'"))
          .isEqualTo(batches);
      assertThat(f.count("batches", "status = 'active'")).isZero();
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void publishesItsNameCadenceAndDefaultBatchSize() {
    assertThat(sweep.sweepName()).isEqualTo("complete_stale_batches");
    assertThat(SweepCatalog.COMPLETE_STALE_BATCHES.cadence()).isEqualTo(Cadence.DRAINED);
    assertThat(SweepCatalog.COMPLETE_STALE_BATCHES.batchSize().of(MaintenanceSettings.defaults()))
        .isEqualTo(100);
  }
}
