package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.taskq.postgres.internal.TestHooks;
import io.taskq.postgres.internal.maintenance.MaintenanceSettings;
import io.taskq.postgres.internal.maintenance.SweepCatalog;
import io.taskq.postgres.internal.sweep.StatementSweep;
import io.taskq.postgres.internal.sweep.SweepBatch;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Concurrency caps end to end (L7): per key, per actor and per queue, with several workers on one
 * schema. Every cap is checked from the database's own record: the overlap of the {@code
 * job_attempts} intervals (claim to recorded outcome, exactly while a slot is held), never from the
 * handlers' view alone. Also: a killed worker's slots come back (S4, S1), idle keyed rows go (S9),
 * and queue caps stay process-local by name (M7).
 */
@TaskQTest(poolSize = 30)
@Tag("L7")
class ConcurrencyCapsTest {
  private final List<TaskQ> fleet = new ArrayList<>();

  @BeforeAll
  static void migrate(TestServices services) {
    TestDb.of(services).migrate();
  }

  @BeforeEach
  void clean(TestServices services) throws SQLException {
    TestDb db = TestDb.of(services);
    db.truncate();
    db.execute(db.sql("TRUNCATE {schema}.reservation_slots"));
  }

  @AfterEach
  void closeFleet() {
    fleet.forEach(TaskQ::close);
    fleet.clear();
  }

  /** Tracks, per key, how many handlers run at once and the most that ever did. */
  private static final class Concurrency {
    final Map<String, AtomicInteger> now = new ConcurrentHashMap<>();
    final Map<String, AtomicInteger> max = new ConcurrentHashMap<>();

    void enter(String key) {
      int n = now.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
      max.computeIfAbsent(key, k -> new AtomicInteger()).accumulateAndGet(n, Math::max);
    }

    void exit(String key) {
      now.get(key).decrementAndGet();
    }

    int maxOf(String key) {
      AtomicInteger m = max.get(key);
      return m == null ? 0 : m.get();
    }
  }

  /** A handler that holds its "key" (payload text) for {@code millis} and counts concurrency. */
  private static JobHandler<String> sleeping(Concurrency seen, long millis) {
    return (json, ctx) -> {
      seen.enter(json);
      try {
        Thread.sleep(millis);
      } finally {
        seen.exit(json);
      }
      return null;
    };
  }

  private TaskQ started(TestDb db, TaskQConfig.Builder settings, Actor<?>... actors)
      throws SQLException {
    return started(TaskQ.builder(db.dataSource).config(settings.build()), false, actors);
  }

  private TaskQ started(TaskQ.Builder builder, boolean maintain, Actor<?>... actors)
      throws SQLException {
    TaskQ taskq = builder.migrate(false).maintenance(maintain).build();
    fleet.add(taskq);
    for (Actor<?> actor : actors) {
      taskq.register(actor);
    }
    taskq.start();
    return taskq;
  }

  private static String quoted(String s) {
    return "\"" + s + "\"";
  }

  /**
   * The most attempts that ever overlapped per group, from job_attempts (start = claim, finish =
   * the recorded outcome, exactly the time the attempt held its slots). At equal instants a finish
   * counts before a start.
   */
  private static Map<String, Long> maxOverlap(TestDb db, String groupExpr) throws SQLException {
    return maxOverlap(db, groupExpr, "true");
  }

  private static Map<String, Long> maxOverlap(TestDb db, String groupExpr, String attemptFilter)
      throws SQLException {
    String sql =
        db.sql(
            "WITH a AS (SELECT "
                + groupExpr
                + " AS g, a.started_at AS s, a.finished_at AS f"
                + "   FROM {schema}.job_attempt_history a JOIN {schema}.jobs j ON j.id = a.job_id"
                + "  WHERE "
                + attemptFilter
                + "),"
                + " e AS (SELECT g, s AS t, 1 AS d FROM a UNION ALL SELECT g, f, -1 FROM a),"
                + " r AS (SELECT g, sum(d) OVER (PARTITION BY g ORDER BY t, d"
                + "   ROWS UNBOUNDED PRECEDING) AS running FROM e)"
                + " SELECT g, max(running) AS m FROM r GROUP BY g");
    Map<String, Long> out = new HashMap<>();
    for (Map<String, Object> row : db.rows(sql)) {
      out.put(String.valueOf(row.get("g")), ((Number) row.get("m")).longValue());
    }
    return out;
  }

  /** One committed batch of {@code sweep}, as the leader's loop runs it. */
  private static int sweepOnce(TestDb db, SweepBatch sweep, int batchSize) throws SQLException {
    try (Connection tx = db.dataSource.getConnection()) {
      tx.setAutoCommit(false);
      int rows = sweep.run(tx, batchSize);
      tx.commit();
      return rows;
    }
  }

  private static long heldSlots(TestDb db) throws SQLException {
    return db.count("reservation_slots WHERE job_id IS NOT NULL");
  }

  @Test
  void keyedCap_neverMoreThanNRunPerKey_acrossThreeWorkersAndHundredsOfJobs(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    Concurrency seen = new Concurrency();
    int perKey = 2;
    Actor<String> invoice =
        Actor.builder("send-invoice", PayloadCodec.rawJson(), sleeping(seen, 10))
            .maxConcurrencyPerKey(perKey)
            .build();
    for (int w = 0; w < 3; w++) {
      started(db, db.config().workerConcurrency(6), invoice);
    }
    List<JobRequest> requests = new ArrayList<>();
    for (int i = 0; i < 240; i++) {
      String key = "customer-" + (i % 4);
      requests.add(
          JobRequest.builder("send-invoice").payloadJson(quoted(key)).concurrencyKey(key).build());
    }
    fleet.get(0).jobs().enqueueAll(requests);

    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> db.count("jobs WHERE status = 'succeeded'") == 240);

    Map<String, Long> perKeyOverlap = maxOverlap(db, "j.concurrency_key");
    assertThat(perKeyOverlap).hasSize(4);
    assertThat(perKeyOverlap.values()).allSatisfy(m -> assertThat(m).isBetween(1L, (long) perKey));
    // The cap, not a lack of parallelism, is what held each key down.
    assertThat(maxOverlap(db, "'all'").get("all")).isGreaterThan(perKey);
    for (int k = 0; k < 4; k++) {
      assertThat(seen.maxOf(quoted("customer-" + k))).isLessThanOrEqualTo(perKey);
    }
    // Waiting for a slot never used up an attempt, and every slot came back.
    assertThat(db.count("jobs WHERE attempt <> 1")).isZero();
    assertThat(db.count("job_attempt_history")).isEqualTo(240);
    assertThat(heldSlots(db)).isZero();
    assertThat(db.count("reservation_slots WHERE keyed AND scope_kind = 'key'"))
        .isBetween(4L, 4L * perKey);
    assertThat(db.count("reservation_slots WHERE scope_name LIKE 'send-invoice:customer-%'"))
        .isEqualTo(db.count("reservation_slots"));
  }

  @Test
  void aFullKey_doesNotBlockTheJobsBehindIt_andItsWaitingJobsUseNoAttempt(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger otherRuns = new AtomicInteger();
    Actor<String> actor =
        Actor.builder(
                "per-customer",
                PayloadCodec.rawJson(),
                (String json, io.taskq.JobContext ctx) -> {
                  if (json.contains("hot")) {
                    release.await(30, TimeUnit.SECONDS);
                  } else {
                    otherRuns.incrementAndGet();
                  }
                  return null;
                })
            .maxConcurrencyPerKey(1)
            .build();
    started(db, db.config().workerConcurrency(4).claimBatchSize(4), actor);
    JobsClient jobs = fleet.get(0).jobs();
    // Twenty jobs of one key first (and at a better priority), then five of other keys.
    List<JobRequest> hot = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      hot.add(
          JobRequest.builder("per-customer")
              .payloadJson(quoted("hot"))
              .concurrencyKey("hot")
              .priority(-1)
              .build());
    }
    jobs.enqueueAll(hot);
    List<JobRequest> cold = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      cold.add(
          JobRequest.builder("per-customer")
              .payloadJson(quoted("cold-" + i))
              .concurrencyKey("cold-" + i)
              .build());
    }
    jobs.enqueueAll(cold);

    await().atMost(Duration.ofSeconds(20)).until(() -> otherRuns.get() == 5);
    // A handler's return is counted before its completion is written: wait for the five writes.
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> db.count("jobs WHERE status = 'succeeded'") == 5);
    assertThat(db.count("jobs WHERE status = 'running'")).isEqualTo(1);
    assertThat(db.count("jobs WHERE status = 'pending' AND attempt = 0")).isEqualTo(19);
    assertThat(
            db.count(
                "job_attempt_history a JOIN {schema}.jobs j ON j.id = a.job_id"
                    + " WHERE j.concurrency_key = 'hot'"))
        .isZero();

    release.countDown();
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> db.count("jobs WHERE status = 'succeeded'") == 25);
    assertThat(maxOverlap(db, "j.concurrency_key").get("hot")).isEqualTo(1);
    assertThat(db.count("jobs WHERE attempt <> 1")).isZero();
  }

  @Test
  void actorAndQueueCaps_holdAcrossTwoWorkers_andAKeyOfAnUncappedActorCapsNothing(
      TestServices services) throws Exception {
    TestDb db = TestDb.of(services);
    Concurrency seen = new Concurrency();
    Actor<String> report =
        Actor.builder("build-report", PayloadCodec.rawJson(), sleeping(seen, 10))
            .queue("reports")
            .maxConcurrency(3)
            .build();
    Actor<String> mail =
        Actor.builder("send-mail", PayloadCodec.rawJson(), sleeping(seen, 10))
            .queue("mail")
            .build();
    Actor<String> free =
        Actor.builder("free", PayloadCodec.rawJson(), sleeping(seen, 10)).queue("free").build();
    for (int w = 0; w < 2; w++) {
      started(
          TaskQ.builder(db.dataSource)
              .config(db.config().workerConcurrency(8).build())
              .queueConcurrency("mail", 2),
          false,
          report,
          mail,
          free);
    }
    List<JobRequest> requests = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      requests.add(
          JobRequest.builder("build-report").queue("reports").payloadJson(quoted("r")).build());
      requests.add(JobRequest.builder("send-mail").queue("mail").payloadJson(quoted("m")).build());
      // A key on an actor that declares no keyed cap is stored but caps nothing.
      requests.add(
          JobRequest.builder("free")
              .queue("free")
              .payloadJson(quoted("f"))
              .concurrencyKey("same")
              .build());
    }
    fleet.get(0).jobs().enqueueAll(requests);

    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> db.count("jobs WHERE status = 'succeeded'") == 180);

    Map<String, Long> byActor = maxOverlap(db, "j.actor");
    assertThat(byActor.get("build-report")).isBetween(1L, 3L);
    assertThat(byActor.get("send-mail")).isBetween(1L, 2L);
    assertThat(byActor.get("free")).isGreaterThan(3L);
    assertThat(seen.maxOf(quoted("r"))).isLessThanOrEqualTo(3);
    assertThat(seen.maxOf(quoted("m"))).isLessThanOrEqualTo(2);
    assertThat(db.count("jobs WHERE concurrency_key = 'same'")).isEqualTo(60);
    assertThat(db.count("jobs WHERE attempt <> 1")).isZero();
    assertThat(heldSlots(db)).isZero();
    assertThat(
            db.rows(
                db.sql(
                    "SELECT DISTINCT scope_kind || '/' || scope_name AS s, keyed"
                        + " FROM {schema}.reservation_slots ORDER BY 1")))
        .extracting(r -> r.get("s") + "," + r.get("keyed"))
        .containsExactly("actor/build-report,false", "queue/mail,false");
  }

  @Test
  @Tag("S4")
  @Tag("S1")
  void aKilledWorkersSlots_areFreedByS4_andItsJobsRunElsewhereUnderTheCap(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    CountDownLatch never = new CountDownLatch(1);
    Actor<String> stuck =
        Actor.builder(
                "capped",
                PayloadCodec.rawJson(),
                (String json, io.taskq.JobContext ctx) -> {
                  never.await();
                  return null;
                })
            .maxConcurrencyPerKey(2)
            .build();
    TaskQConfig.Builder quick =
        db.config()
            .leasePeriod(Duration.ofSeconds(1))
            .heartbeatInterval(Duration.ofMillis(200))
            .sweepInterval(Duration.ofMillis(300))
            .workerConcurrency(4);
    TaskQ doomed = started(db, quick, stuck);
    List<JobRequest> requests = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      requests.add(
          JobRequest.builder("capped").payloadJson(quoted("k")).concurrencyKey("k").build());
    }
    doomed.jobs().enqueueAll(requests);
    await().atMost(Duration.ofSeconds(10)).until(() -> heldSlots(db) == 2);
    assertThat(db.count("jobs WHERE status = 'running'")).isEqualTo(2);

    // Killed: no outcome, no release; its jobs stay 'running' and its slots stay held.
    TestHooks.of(doomed).crash();
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                db.count(
                        "reservation_slots WHERE job_id IS NOT NULL"
                            + " AND lease_expires_at < statement_timestamp()")
                    == 2);
    assertThat(db.count("jobs WHERE status = 'running'")).isEqualTo(2);

    // S4 alone frees them (no reclaim sweep ran: the jobs are still 'running').
    assertThat(sweepOnce(db, SweepCatalog.SWEEP_LEAKED_RESERVATION_SLOTS.batch(db.schema), 100))
        .isEqualTo(2);
    assertThat(heldSlots(db)).isZero();
    assertThat(db.count("jobs WHERE status = 'running'")).isEqualTo(2);

    // A survivor with maintenance reclaims the two jobs (S1) and runs all six, two at a time.
    Concurrency seen = new Concurrency();
    Actor<String> working =
        Actor.builder("capped", PayloadCodec.rawJson(), sleeping(seen, 20))
            .maxConcurrencyPerKey(2)
            .build();
    started(TaskQ.builder(db.dataSource).config(quick.build()), true, working);
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> db.count("jobs WHERE status = 'succeeded'") == 6);
    assertThat(seen.maxOf(quoted("k"))).isLessThanOrEqualTo(2);
    assertThat(db.count("job_attempts WHERE outcome = 'repended'")).isEqualTo(2);
    // The dead attempts count as running until S1 records them, but their slots were free from
    // the moment their lease passed (as the jobs themselves were): the live attempts never
    // overlapped more than the cap.
    assertThat(maxOverlap(db, "j.concurrency_key", "a.outcome = 'succeeded'").get("k"))
        .isLessThanOrEqualTo(2);
    assertThat(heldSlots(db)).isZero();
    never.countDown();
  }

  @Test
  @Tag("S4")
  void aSlotWhoseHolderDied_isTakenOverAtClaim_evenBeforeS4Runs(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    // The only slot of the key is held by a job that no longer exists, under a lease that passed.
    db.execute(
        db.sql(
            "INSERT INTO {schema}.reservation_slots"
                + " (scope_kind, scope_name, slot, keyed, job_id, lease_token, lease_expires_at)"
                + " VALUES ('key', 'solo:k', 0, true, 999999, 1, now() - interval '1 minute')"));
    Concurrency seen = new Concurrency();
    Actor<String> solo =
        Actor.builder("solo", PayloadCodec.rawJson(), sleeping(seen, 1))
            .maxConcurrencyPerKey(1)
            .build();
    TaskQ taskq = started(db, db.config(), solo);
    taskq
        .jobs()
        .enqueue(JobRequest.builder("solo").payloadJson(quoted("k")).concurrencyKey("k").build());
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> db.count("jobs WHERE status = 'succeeded'") == 1);
    assertThat(db.count("reservation_slots")).isEqualTo(1);
    assertThat(heldSlots(db)).isZero();
  }

  @Test
  @Tag("S9")
  void idleKeyedRows_areDeletedByS9_queueAndActorRowsStay_andAKeyUsedAgainGetsFreshRows(
      TestServices services) throws Exception {
    TestDb db = TestDb.of(services);
    Concurrency seen = new Concurrency();
    Actor<String> keyed =
        Actor.builder("keyed", PayloadCodec.rawJson(), sleeping(seen, 1))
            .queue("kq")
            .maxConcurrency(5)
            .maxConcurrencyPerKey(1)
            .build();
    TaskQ taskq =
        started(
            TaskQ.builder(db.dataSource).config(db.config().build()).queueConcurrency("kq", 4),
            false,
            keyed);
    List<JobRequest> requests = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      requests.add(
          JobRequest.builder("keyed")
              .queue("kq")
              .payloadJson(quoted("k" + i))
              .concurrencyKey("k" + i)
              .build());
    }
    taskq.jobs().enqueueAll(requests);
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> db.count("jobs WHERE status = 'succeeded'") == 20);
    assertThat(db.count("reservation_slots WHERE keyed")).isEqualTo(20);
    long unkeyed = db.count("reservation_slots WHERE NOT keyed");
    assertThat(unkeyed).isPositive();

    // Nothing is idle past an hour yet; then age every row by two hours.
    StatementSweep sweep = SweepCatalog.SWEEP_IDLE_KEYED_ROWS.batch(db.schema, Duration.ofHours(1));
    assertThat(
            sweepOnce(
                db,
                sweep,
                SweepCatalog.SWEEP_IDLE_KEYED_ROWS.batchSize().of(MaintenanceSettings.defaults())))
        .isZero();
    db.execute(
        db.sql("UPDATE {schema}.reservation_slots SET last_used_at = now() - interval '2 hours'"));
    assertThat(
            sweepOnce(
                db,
                sweep,
                SweepCatalog.SWEEP_IDLE_KEYED_ROWS.batchSize().of(MaintenanceSettings.defaults())))
        .isEqualTo(20);
    assertThat(db.count("reservation_slots WHERE keyed")).isZero();
    assertThat(db.count("reservation_slots WHERE NOT keyed")).isEqualTo(unkeyed);

    taskq
        .jobs()
        .enqueue(
            JobRequest.builder("keyed")
                .queue("kq")
                .payloadJson(quoted("k3"))
                .concurrencyKey("k3")
                .build());
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> db.count("jobs WHERE status = 'succeeded'") == 21);
    assertThat(db.count("reservation_slots WHERE keyed AND scope_name = 'keyed:k3'")).isEqualTo(1);
  }

  @Test
  @Tag("S10")
  void eachWorkersRegistryStaysWithinMaxKeyedReservations_andItsDrainDeletesTheIdleKeysRows(
      TestServices services) throws Exception {
    TestDb db = TestDb.of(services);
    Concurrency seen = new Concurrency();
    Actor<String> keyed =
        Actor.builder("drained", PayloadCodec.rawJson(), sleeping(seen, 1))
            .maxConcurrencyPerKey(1)
            .build();
    // No maintenance anywhere: only the worker's own drain (not leader-gated) can delete rows.
    TaskQ taskq =
        started(
            db,
            db.config()
                .workerConcurrency(6)
                .maxKeyedReservations(4)
                .sweepInterval(Duration.ofMillis(300)),
            keyed);
    List<JobRequest> requests = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      requests.add(
          JobRequest.builder("drained")
              .payloadJson(quoted("k" + i))
              .concurrencyKey("k" + i)
              .build());
    }
    taskq.jobs().enqueueAll(requests);
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> db.count("jobs WHERE status = 'succeeded'") == 6);
    assertThat(TestHooks.of(taskq).worker().reservations().size()).isLessThanOrEqualTo(4);
    await()
        .atMost(Duration.ofSeconds(15))
        .until(() -> db.count("reservation_slots WHERE keyed") == 0);
    assertThat(TestHooks.of(taskq).worker().reservations().size()).isZero();
    assertThat(TestHooks.of(taskq).worker().keyedDrain().orElseThrow().deleted()).isEqualTo(6);
  }

  @Test
  @Tag("M7")
  void queueCapReservations_goByTheProcessLocalNameInTheRegistry_andNeverReachPostgres(
      TestServices services) throws Exception {
    TestDb db = TestDb.of(services);
    Concurrency seen = new Concurrency();
    Actor<String> actor =
        Actor.builder("queued", PayloadCodec.rawJson(), sleeping(seen, 1))
            .queue("emails")
            .maxConcurrencyPerKey(2)
            .build();
    TaskQ taskq =
        started(
            TaskQ.builder(db.dataSource).config(db.config().build()).queueConcurrency("emails", 3),
            false,
            actor);
    taskq
        .jobs()
        .enqueueAll(
            List.of(
                JobRequest.builder("queued")
                    .queue("emails")
                    .payloadJson(quoted("a"))
                    .concurrencyKey("a")
                    .build(),
                JobRequest.builder("queued").queue("emails").payloadJson(quoted("b")).build()));
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> db.count("jobs WHERE status = 'succeeded'") == 2);

    assertThat(TestHooks.of(taskq).worker().reservations().registryNames())
        .contains("taskq:global:queue:emails", "key:queued:a");
    assertThat(TestHooks.of(taskq).worker().reservations().contains("taskq:global:queue:emails"))
        .isTrue();
    assertThat(db.count("reservation_slots WHERE scope_kind = 'queue' AND scope_name = 'emails'"))
        .isPositive();
    assertThat(db.count("reservation_slots WHERE scope_name LIKE 'taskq:global:%'")).isZero();
    assertThat(db.count("rate_limit_buckets WHERE name LIKE 'taskq:global:%'")).isZero();
  }

  @Test
  @Tag("M7")
  void aProcessLocalNameIsRefusedWhereCapsAreDeclared() {
    assertThatThrownBy(() -> TaskQ.builder().queueConcurrency("taskq:global:queue:emails", 2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("M7");
  }

  @Test
  void badCapsAndKeys_areRefusedAtTheBoundary_namingTheProblem() {
    assertThatThrownBy(
            () -> Actor.builder("a", PayloadCodec.rawJson(), (j, c) -> null).maxConcurrency(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxConcurrency of actor 'a' must be in [1, 10000], was 0");
    assertThatThrownBy(
            () ->
                Actor.builder("a", PayloadCodec.rawJson(), (j, c) -> null)
                    .maxConcurrencyPerKey(10_001))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxConcurrencyPerKey");
    assertThatThrownBy(() -> TaskQ.builder().queueConcurrency("mail", -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("concurrency cap of queue 'mail'");
    assertThatThrownBy(() -> JobRequest.builder("a").concurrencyKey(""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("concurrency key");
    assertThatThrownBy(() -> JobRequest.builder("a").concurrencyKey("a\u0000b"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("concurrency key");
    assertThatThrownBy(() -> JobRequest.builder("a").concurrencyKey("x".repeat(257)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("256");
    assertThat(JobRequest.builder("a").concurrencyKey("c-42").build().concurrencyKey())
        .isEqualTo("c-42");
  }
}
