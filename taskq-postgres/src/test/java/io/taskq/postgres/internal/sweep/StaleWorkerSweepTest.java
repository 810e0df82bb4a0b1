package io.taskq.postgres.internal.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskq.postgres.internal.maintenance.MaintenanceSettings;
import io.taskq.postgres.internal.maintenance.SweepCatalog;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@TaskQTest
@Tag("S6")
class StaleWorkerSweepTest {
  private SweepFixture f;
  private StatementSweep sweep;

  @BeforeEach
  void freshSchema(TestServices services) {
    f = SweepFixture.fresh(services.dataSource(), services.schema());
    sweep = SweepCatalog.CLEANUP_STALE_WORKERS.batch(f.schema, Duration.ofMinutes(5));
  }

  private void insertWorkers(int n, String prefix, String heartbeatAt) {
    f.db.update(
        "INSERT INTO "
            + f.t("workers")
            + " (id, hostname, pid, queues, concurrency, heartbeat_at)"
            + " SELECT ? || g, 'host', g, ARRAY['q'], 4, "
            + heartbeatAt
            + " FROM generate_series(1, ?) g",
        prefix,
        n);
  }

  private void insertAttempts(String workerId, int n) {
    f.db.update(
        "INSERT INTO "
            + f.t("job_attempts")
            + " (job_id, attempt, worker_id, outcome) SELECT g, 1, ?, 'succeeded'"
            + " FROM generate_series(1, ?) g",
        workerId,
        n);
  }

  @Test
  void deletesWorkersWhoseHeartbeatIsOlderThanStaleAfter_andKeepsFreshOnes() {
    insertWorkers(1, "stale-", "now() - interval '5 minutes 1 second'");
    insertWorkers(1, "fresh-", "now() - interval '4 minutes 50 seconds'");

    assertThat(f.runBatch(sweep, 100)).isEqualTo(1);

    assertThat(f.db.queryColumn("SELECT id FROM " + f.t("workers"))).containsExactly("fresh-1");
    assertThat(f.count("job_events", "true")).isZero();
  }

  @Test
  void setsTheAttemptsOfADeletedWorkerToNoWorker_andLeavesOtherWorkersAttempts() {
    insertWorkers(1, "stale-", "now() - interval '1 hour'");
    insertWorkers(1, "fresh-", "now()");
    insertAttempts("stale-1", 3);
    insertAttempts("fresh-1", 2);

    f.runBatch(sweep, 100);

    assertThat(f.count("workers", "id = 'stale-1'")).isZero();
    assertThat(f.count("job_attempts", "worker_id IS NULL")).isEqualTo(3);
    assertThat(f.count("job_attempts", "worker_id = 'fresh-1'")).isEqualTo(2);
  }

  @Test
  @Tag("B1")
  void drainsA250WorkerBacklogInBatchesOfTheBatchSize() {
    insertWorkers(250, "stale-", "now() - interval '1 hour'");

    assertThat(f.drain(sweep, 100)).containsExactly(100, 100, 50, 0);
    assertThat(f.count("workers", "true")).isZero();
  }

  @Test
  @Tag("B1")
  void boundsTheSetNullFanOut_aWorkerWithALongHistoryIsDetachedAcrossBatches() {
    insertWorkers(1, "stale-", "now() - interval '1 hour'");
    insertAttempts("stale-1", 250);

    // 100 + 100 attempts detached; then the last 50 and the worker itself (51).
    assertThat(f.drain(sweep, 100)).containsExactly(100, 100, 51, 0);
    assertThat(f.count("workers", "true")).isZero();
    assertThat(f.count("job_attempts", "worker_id IS NULL")).isEqualTo(250);
  }

  @Test
  void deletesAStaleWorkerThatStillOwnsRunningJobs_S1ReclaimsThemAsOwnerless() {
    insertWorkers(1, "stale-", "now() - interval '1 hour'");
    f.insertJobs(
        1,
        "running",
        "locked_by, lock_expires_at, lease_token",
        "'stale-1', now() + interval '1 hour', 1");

    f.runBatch(sweep, 100);

    assertThat(f.count("workers", "true")).isZero();
    assertThat(f.count("jobs", "status = 'running' AND locked_by = 'stale-1'")).isEqualTo(1);
  }

  @Test
  void refusesAStaleAfterOfZero() {
    assertThatThrownBy(() -> SweepCatalog.CLEANUP_STALE_WORKERS.batch(f.schema, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("TASKQ_WORKER_STALE_AFTER")
        .hasMessageContaining("above zero");
  }

  @Test
  void publishesItsNameCadenceAndDefaultBatchSize() {
    assertThat(sweep.sweepName()).isEqualTo("cleanup_stale_workers");
    assertThat(SweepCatalog.CLEANUP_STALE_WORKERS.cadence()).isEqualTo(Cadence.DRAINED);
    assertThat(SweepCatalog.CLEANUP_STALE_WORKERS.batchSize().of(MaintenanceSettings.defaults()))
        .isEqualTo(100);
  }
}
