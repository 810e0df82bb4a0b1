package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.taskq.core.internal.AdvisoryLockName;
import io.taskq.postgres.internal.TestHooks;
import io.taskq.postgres.testing.RecordingListener;
import io.taskq.spi.MaintenanceHealth;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Several TaskQ processes on one schema, end to end: one maintenance leader at a time (M1, O6),
 * failover when it goes, the readiness view (O7), and no job lost when a process dies holding jobs
 * (S1, S14, L4, L11).
 */
@TaskQTest(poolSize = 30)
@Tag("M1")
@Tag("O6")
class TaskQFleetTest {
  private static final String SLEEPER = "fleet-sleeper";
  private final List<TaskQ> fleet = new ArrayList<>();

  @BeforeAll
  static void migrate(TestServices services) {
    TestDb.of(services).migrate();
  }

  @BeforeEach
  void clean(TestServices services) throws SQLException {
    TestDb.of(services).truncate();
  }

  @AfterEach
  void closeFleet() {
    fleet.forEach(TaskQ::close);
    fleet.clear();
  }

  /** Quick timings: short leases, a sweep every second. */
  private static TaskQConfig.Builder quick(TestDb db) {
    return db.config()
        .leasePeriod(Duration.ofSeconds(2))
        .heartbeatInterval(Duration.ofMillis(500))
        .sweepInterval(Duration.ofSeconds(1))
        .workerConcurrency(10);
  }

  private TaskQ started(TestDb db, TaskQConfig.Builder settings, Actor<?> actor)
      throws SQLException {
    TaskQ taskq = db.maintainingTaskq(settings);
    fleet.add(taskq);
    taskq.register(actor);
    taskq.start();
    return taskq;
  }

  private static Actor<String> idle() {
    return Actor.rawJson(SLEEPER, (json, ctx) -> null);
  }

  private static long leaders(List<TaskQ> instances) {
    return instances.stream().filter(TaskQ::isLeader).count();
  }

  /** Sessions holding the schema's leader lock, as the server sees them. */
  private static long lockHolders(TestDb db) throws SQLException {
    long key = AdvisoryLockName.of(AdvisoryLockName.Purpose.MAINTENANCE_LEADER, db.schema).key();
    return db.queryLong(
        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 1"
            + " AND classid::bigint = ? AND objid::bigint = ?",
        key >>> 32,
        key & 0xFFFF_FFFFL);
  }

  @Test
  void threeInstances_electExactlyOneLeader_andAnotherTakesOverWhenItCloses(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    for (int i = 0; i < 3; i++) {
      started(db, quick(db), idle());
    }
    List<TaskQ> all = List.copyOf(fleet);
    await()
        .during(Duration.ofSeconds(2))
        .atMost(Duration.ofSeconds(15))
        .until(() -> leaders(all) == 1);
    assertThat(lockHolders(db)).isEqualTo(1);

    TaskQ leader = all.stream().filter(TaskQ::isLeader).findFirst().orElseThrow();
    leader.close();
    List<TaskQ> rest = all.stream().filter(t -> t != leader).toList();
    await()
        .during(Duration.ofSeconds(2))
        .atMost(Duration.ofSeconds(15))
        .until(() -> leaders(rest) == 1);
    assertThat(leader.isLeader()).isFalse();
    assertThat(lockHolders(db)).isEqualTo(1);
  }

  @Test
  @Tag("O7")
  void health_saysNoSweepYetBeforeTheFirstSweep_andHealthyOnceTheLeaderSweeps(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    RecordingListener signals = new RecordingListener();
    TaskQ first =
        TaskQ.builder(db.dataSource)
            .config(quick(db).build())
            .migrate(false)
            .listener(signals)
            .build();
    fleet.add(first);
    first.register(idle());
    MaintenanceHealth.Report before = first.health();
    assertThat(before.degraded()).isFalse();
    assertThat(before.reasons()).containsExactly(MaintenanceHealth.NO_SWEEP_YET);
    assertThat(first.isLeader()).isFalse();

    first.start();
    await().atMost(Duration.ofSeconds(15)).until(first::isLeader);
    await()
        .atMost(Duration.ofSeconds(15))
        .until(() -> sweptOnce(first.health(), "reclaim_expired_locks", "scheduled_to_pending"));
    MaintenanceHealth.Report after = first.health();
    assertThat(after.degraded()).isFalse();
    assertThat(after.reasons()).isEmpty();
    assertThat(signals.signals("leader")).startsWith("leader true");
    assertThat(signals.signals("success reclaim_expired_locks")).isNotEmpty();

    TaskQ follower = started(db, quick(db), idle());
    await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).until(first::isLeader);
    assertThat(follower.isLeader()).isFalse();
    assertThat(follower.health().degraded()).isFalse();
    assertThat(follower.health().reasons()).containsExactly(MaintenanceHealth.NO_SWEEP_YET);
  }

  private static boolean sweptOnce(MaintenanceHealth.Report report, String... names) {
    for (String name : names) {
      boolean swept =
          report.sweeps().stream().anyMatch(s -> s.name().equals(name) && s.lastSuccess() != null);
      if (!swept) {
        return false;
      }
    }
    return true;
  }

  @Test
  void maintenanceOff_neverCampaigns(TestServices services) throws Exception {
    TestDb db = TestDb.of(services);
    TaskQ passive =
        TaskQ.builder(db.dataSource)
            .config(quick(db).build())
            .migrate(false)
            .maintenance(false)
            .build();
    fleet.add(passive);
    passive.register(idle());
    passive.start();
    TaskQ active = started(db, quick(db), idle());
    await().atMost(Duration.ofSeconds(15)).until(active::isLeader);
    active.close();
    await()
        .during(Duration.ofSeconds(3))
        .atMost(Duration.ofSeconds(5))
        .until(() -> !passive.isLeader() && lockHolders(db) == 0);
    assertThat(passive.health().reasons()).containsExactly(MaintenanceHealth.NO_SWEEP_YET);
  }

  @Test
  void ownedPool_leadsOnADirectConnectionOfItsOwn(TestServices services) throws Exception {
    TestDb db = TestDb.of(services);
    TaskQConfig config = quick(db).databaseUrl(services.jdbcUrl()).databasePoolSize(3).build();
    try (TaskQ owned = TaskQ.builder().config(config).migrate(false).build()) {
      owned.register(idle());
      owned.start();
      await().atMost(Duration.ofSeconds(15)).until(owned::isLeader);
      long key = AdvisoryLockName.of(AdvisoryLockName.Purpose.MAINTENANCE_LEADER, db.schema).key();
      long direct =
          db.queryLong(
              "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid"
                  + " WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1"
                  + " AND l.classid::bigint = ? AND l.objid::bigint = ?"
                  + " AND a.application_name = 'taskq maintenance leader'",
              key >>> 32,
              key & 0xFFFF_FFFFL);
      assertThat(direct).isEqualTo(1);
    }
    await().atMost(Duration.ofSeconds(10)).until(() -> lockHolders(db) == 0);
  }

  @Test
  @Tag("S1")
  @Tag("S14")
  @Tag("L4")
  @Tag("L11")
  void jobsOfAProcessThatDies_areReclaimedAndSucceedExactlyOnceElsewhere(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    int jobs = 10;
    CountDownLatch never = new CountDownLatch(1);
    AtomicInteger hung = new AtomicInteger();
    TaskQ doomed =
        started(
            db,
            quick(db),
            Actor.rawJson(
                SLEEPER,
                (json, ctx) -> {
                  hung.incrementAndGet();
                  never.await();
                  return null;
                }));
    RetryPolicy quickRetry =
        RetryPolicy.of(
            RetryPolicy.Backoff.CONSTANT, Duration.ofMillis(100), Duration.ofMillis(100), 0, 5);
    List<Long> ids = db.enqueue(SLEEPER, "default", jobs, quickRetry);
    db.notifyWake();
    String doomedId = doomed.workerId();
    await().atMost(Duration.ofSeconds(15)).until(() -> hung.get() == jobs);
    assertThat(db.count("jobs WHERE status = 'running' AND locked_by = ?", doomedId))
        .isEqualTo(jobs);

    TestHooks.of(doomed).crash();
    // Dead, not shut down: its leases are still held and its row is still there.
    assertThat(db.count("jobs WHERE status = 'running' AND locked_by = ?", doomedId))
        .isEqualTo(jobs);
    assertThat(db.count("workers WHERE id = ?", doomedId)).isEqualTo(1);

    AtomicInteger runs = new AtomicInteger();
    TaskQ survivor =
        started(
            db,
            quick(db),
            Actor.rawJson(
                SLEEPER,
                (json, ctx) -> {
                  runs.incrementAndGet();
                  return "\"done\"";
                }));
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> db.count("jobs WHERE status = 'succeeded'") == jobs);
    assertThat(survivor.isLeader()).isTrue();
    assertThat(runs).hasValue(jobs);
    for (long id : ids) {
      assertThat(db.attempts(id))
          .extracting(a -> a.get("outcome"))
          .containsExactly("repended", "succeeded");
      assertThat(db.events(id))
          .filteredOn(e -> "reclaimed".equals(e.get("kind")))
          .extracting(e -> e.get("disposition"))
          .containsExactly("repended");
    }
    List<Map<String, Object>> succeeded =
        db.rows(
            db.sql(
                "SELECT job_id, count(*) AS n FROM {schema}.job_attempt_history"
                    + " WHERE outcome = 'succeeded' GROUP BY job_id HAVING count(*) <> 1"));
    assertThat(succeeded).isEmpty();
  }
}
