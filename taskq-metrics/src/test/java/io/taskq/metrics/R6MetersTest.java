package io.taskq.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.taskq.Actor;
import io.taskq.JobRequest;
import io.taskq.SchemaName;
import io.taskq.TaskQ;
import io.taskq.TaskQConfig;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * R6 and O1 on a real TaskQ: the labelled maintenance counters exist at zero from the start, fenced
 * writes count in a named meter, and the O1 gauge samplers (backlog detection, per-actor backlog,
 * reservation slots) read what the database holds, counting a failed read under their own name.
 */
@TaskQTest
@Tag("R6")
@Tag("O1")
class R6MetersTest {
  private final List<AutoCloseable> open = new ArrayList<>();
  private TestServices services;
  private SchemaName schema;
  private PrometheusMeterRegistry registry;

  @BeforeEach
  void setUp(TestServices services) throws SQLException {
    this.services = services;
    this.schema = SchemaName.of(services.schema());
    this.registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    try (TaskQ migrator =
        TaskQ.producer(services.dataSource())
            .config(TaskQConfig.builder().schemaName(schema).build())
            .build()) {
      migrator.migrations().apply();
    }
    execute(
        "TRUNCATE {schema}.jobs, {schema}.job_attempts, {schema}.job_events, {schema}.workers,"
            + " {schema}.reservation_slots CASCADE");
  }

  @AfterEach
  void tearDown() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
  }

  private TaskQConfig.Builder config() {
    return TaskQConfig.builder()
        .schemaName(services.schema())
        .pollInterval(Duration.ofMillis(100))
        .heartbeatInterval(Duration.ofMillis(200))
        .leasePeriod(Duration.ofSeconds(10))
        .shutdownGrace(Duration.ofSeconds(1));
  }

  private TaskQ started(Actor<?> actor, boolean maintenance) throws SQLException {
    TaskQMetrics metrics = new TaskQMetrics();
    TaskQ taskq =
        TaskQObservability.listen(TaskQ.builder(services.dataSource()), metrics)
            .config(config().build())
            .migrate(false)
            .maintenance(maintenance)
            .build();
    open.add(taskq);
    open.add(TaskQObservability.attach(taskq, metrics, registry, Duration.ofHours(1)));
    taskq.register(actor);
    taskq.start();
    return taskq;
  }

  private TaskQ producer() {
    TaskQ taskq =
        TaskQ.producer(services.dataSource()).config(config().build()).migrate(false).build();
    open.add(taskq);
    return taskq;
  }

  private Scrape scrape() {
    return new Scrape(registry.scrape());
  }

  private void execute(String text) throws SQLException {
    try (Connection c = services.dataSource().getConnection();
        Statement s = c.createStatement()) {
      s.execute(text.replace("{schema}", schema.quoted()));
    }
  }

  // ---- meters present before their first event ----

  @Test
  void theLabelledCounters_existAtZero_beforeTheirFirstEvent() throws Exception {
    TaskQ taskq = started(Actor.rawJson("mailer", (json, ctx) -> null), true);
    await().atMost(Duration.ofSeconds(20)).until(taskq::isLeader);

    Scrape scrape = scrape();
    for (String sweep :
        List.of(
            "reclaim_expired_locks",
            "sweep_deadline_exceeded",
            "scheduled_to_pending",
            "sweep_leaked_reservation_slots",
            "sweep_expired_results",
            "cron",
            "queue_depth",
            "backlog_detection",
            "actor_backlog",
            "reservation_slots")) {
      assertThat(
              scrape.value(
                  "taskq_maintenance_leader_sweep_timeouts_total", "sweep_name=\"" + sweep + "\""))
          .as("sweep_timeouts{sweep_name=%s} before any timeout", sweep)
          .isEqualTo(0.0);
    }
    for (String disposition : List.of("repended", "crashed", "cancelled", "unknown")) {
      assertThat(
              scrape.value(
                  "taskq_jobs_reclaimed_total",
                  "actor=\"mailer\"",
                  "disposition=\"" + disposition + "\""))
          .as("reclaimed{actor=mailer, disposition=%s} before any reclaim", disposition)
          .isEqualTo(0.0);
    }
    assertThat(scrape.value("taskq_jobs_fenced_writes_total")).isEqualTo(0.0);
  }

  // ---- the fenced-write meter ----

  @Test
  void aFencedWrite_countsInTheNamedMeter() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch proceed = new CountDownLatch(1);
    TaskQ taskq =
        started(
            Actor.rawJson(
                "fenced",
                (json, ctx) -> {
                  entered.countDown();
                  proceed.await(30, TimeUnit.SECONDS);
                  return "{\"late\": true}";
                }),
            false);
    long id = taskq.jobs().enqueue(JobRequest.of("fenced", "{}"));
    assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
    // What a lease reclaim plus another worker's claim do to the row: a new owner and token.
    execute(
        "UPDATE {schema}.jobs SET lease_token = nextval('{schema}.lease_token_seq'),"
            + " locked_by = 'otherworker' WHERE id = "
            + id);
    proceed.countDown();

    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> scrape().value("taskq_jobs_fenced_writes_total"), v -> v != null && v >= 1);
  }

  // ---- O1 gauge samplers ----

  @Test
  void backlogDetection_countsEachSweepsEligibleRows() throws Exception {
    TaskQ taskq = producer();
    execute(
        "INSERT INTO {schema}.workers (id, hostname, pid, queues, concurrency)"
            + " VALUES ('w1', 'test-host', 1, '{default}', 4)");
    for (int i = 0; i < 6; i++) {
      taskq.jobs().enqueue(JobRequest.of("victim", "{}"));
    }
    // 3 running with an expired lease, 2 scheduled and due, 1 pending past its deadline.
    execute(
        "UPDATE {schema}.jobs SET status = 'running', attempt = 1, locked_by = 'w1',"
            + " lock_expires_at = clock_timestamp() - interval '1 minute',"
            + " lease_token = nextval('{schema}.lease_token_seq'), started_at = now()"
            + " WHERE id IN (SELECT id FROM {schema}.jobs ORDER BY id LIMIT 3)");
    execute(
        "UPDATE {schema}.jobs SET status = 'scheduled', run_at = now() - interval '1 second'"
            + " WHERE id IN (SELECT id FROM {schema}.jobs WHERE status = 'pending'"
            + " ORDER BY id LIMIT 2)");
    execute(
        "UPDATE {schema}.jobs SET deadline_at = now() - interval '1 second'"
            + " WHERE status = 'pending'");
    // A leaked slot: held, its lease passed.
    execute(
        "INSERT INTO {schema}.reservation_slots"
            + " (scope_kind, scope_name, slot, job_id, lease_token, lease_expires_at, keyed)"
            + " VALUES ('queue', 'default', 0, 1, 1, now() - interval '1 minute', false)");

    GaugeSampler<Map.Entry<String, io.taskq.operations.BoundedCount>> sampler =
        TaskQObservability.backlogSampler(
            () -> List.copyOf(taskq.operations().sweepBacklog().entrySet()), registry);
    assertThat(sampler.sampleOnce()).isTrue();

    Scrape scrape = scrape();
    assertThat(backlog(scrape, "reclaim_expired_locks")).isEqualTo(3.0);
    assertThat(backlog(scrape, "scheduled_to_pending")).isEqualTo(2.0);
    assertThat(backlog(scrape, "sweep_deadline_exceeded")).isEqualTo(1.0);
    assertThat(backlog(scrape, "sweep_leaked_reservation_slots")).isEqualTo(1.0);

    // The backlog drains: the gauges follow the next read.
    execute(
        "UPDATE {schema}.jobs SET status = 'pending', locked_by = NULL,"
            + " lock_expires_at = NULL, lease_token = NULL WHERE status = 'running'");
    assertThat(sampler.sampleOnce()).isTrue();
    assertThat(backlog(scrape(), "reclaim_expired_locks")).isEqualTo(0.0);
  }

  private static Double backlog(Scrape scrape, String sweep) {
    return scrape.value("taskq_maintenance_leader_sweep_backlog", "sweep_name=\"" + sweep + "\"");
  }

  @Test
  void perActorBacklog_readsEachActorsPendingJobs() throws Exception {
    TaskQ taskq = producer();
    for (int i = 0; i < 3; i++) {
      taskq.jobs().enqueue(JobRequest.of("mailer", "{}"));
    }
    taskq.jobs().enqueue(JobRequest.of("billing", "{}"));
    taskq.jobs().enqueue(JobRequest.of("billing", "{}"));
    execute(
        "UPDATE {schema}.jobs SET run_at = now() - interval '90 seconds' WHERE actor = 'billing'");

    GaugeSampler<io.taskq.operations.ActorBacklog> sampler =
        TaskQObservability.actorBacklogSampler(() -> taskq.operations().actorBacklog(), registry);
    assertThat(sampler.sampleOnce()).isTrue();

    Scrape scrape = scrape();
    assertThat(scrape.value("taskq_actor_depth", "actor=\"mailer\"")).isEqualTo(3.0);
    assertThat(scrape.value("taskq_actor_depth", "actor=\"billing\"")).isEqualTo(2.0);
    assertThat(scrape.value("taskq_actor_oldest_pending_age_seconds", "actor=\"billing\""))
        .isBetween(89.0, 300.0);

    // An actor whose jobs all left reads 0, not its last value.
    execute("DELETE FROM {schema}.jobs WHERE actor = 'mailer'");
    assertThat(sampler.sampleOnce()).isTrue();
    assertThat(scrape().value("taskq_actor_depth", "actor=\"mailer\"")).isEqualTo(0.0);
  }

  @Test
  void reservationSlots_readHeldAndCapacityPerCap_keyedCapsSummed() throws Exception {
    TaskQ taskq = producer();
    execute(
        "INSERT INTO {schema}.reservation_slots"
            + " (scope_kind, scope_name, slot, job_id, lease_token, lease_expires_at, keyed)"
            + " VALUES ('queue', 'emails', 0, 11, 1, now() + interval '1 minute', false),"
            + " ('queue', 'emails', 1, NULL, NULL, NULL, false),"
            + " ('queue', 'emails', 2, NULL, NULL, NULL, false),"
            + " ('actor', 'charge', 0, 12, 2, now() + interval '1 minute', false),"
            + " ('key', 'invoice:c-1', 0, 13, 3, now() + interval '1 minute', true),"
            + " ('key', 'invoice:c-2', 0, 14, 4, now() + interval '1 minute', true),"
            + " ('key', 'invoice:c-3', 0, NULL, NULL, NULL, true)");

    GaugeSampler<io.taskq.operations.ReservationSlots> sampler =
        TaskQObservability.reservationSlotSampler(
            () -> taskq.operations().reservationSlots(), registry);
    assertThat(sampler.sampleOnce()).isTrue();

    Scrape scrape = scrape();
    String held = "taskq_reservation_slots_held";
    String capacity = "taskq_reservation_slots_capacity";
    assertThat(scrape.value(held, "kind=\"queue\"", "name=\"emails\"")).isEqualTo(1.0);
    assertThat(scrape.value(capacity, "kind=\"queue\"", "name=\"emails\"")).isEqualTo(3.0);
    assertThat(scrape.value(held, "kind=\"actor\"", "name=\"charge\"")).isEqualTo(1.0);
    assertThat(scrape.value(capacity, "kind=\"actor\"", "name=\"charge\"")).isEqualTo(1.0);
    assertThat(scrape.value(held, "kind=\"key\"", "name=\"*\"")).isEqualTo(2.0);
    assertThat(scrape.value(capacity, "kind=\"key\"")).as("no capacity for keyed caps").isNull();
    assertThat(scrape.toString()).doesNotContain("invoice:c-1");
  }

  @Test
  void aFailedRead_countsUnderTheSamplersOwnName_andKeepsTheLastValues() throws Exception {
    TaskQ taskq = producer();
    taskq.jobs().enqueue(JobRequest.of("mailer", "{}"));
    boolean[] fail = {false};
    GaugeSampler<io.taskq.operations.ActorBacklog> sampler =
        TaskQObservability.actorBacklogSampler(
            () -> {
              if (fail[0]) {
                throw new java.sql.SQLTimeoutException("canceling statement due to timeout");
              }
              return taskq.operations().actorBacklog();
            },
            registry);
    assertThat(sampler.sampleOnce()).isTrue();
    fail[0] = true;
    assertThat(sampler.sampleOnce()).isFalse();

    Scrape scrape = scrape();
    assertThat(
            scrape.value(
                "taskq_maintenance_leader_sweep_timeouts_total", "sweep_name=\"actor_backlog\""))
        .isEqualTo(1.0);
    assertThat(scrape.value("taskq_actor_depth", "actor=\"mailer\"")).isEqualTo(1.0);
  }
}
