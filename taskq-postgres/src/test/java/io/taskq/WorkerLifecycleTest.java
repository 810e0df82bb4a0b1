package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Workers register, heartbeat, renew their leases and deregister (L10, L4). */
@TaskQTest
@Tag("L10")
@Tag("L4")
class WorkerLifecycleTest {
  @BeforeAll
  static void migrate(TestServices services) {
    TestDb.of(services).migrate();
  }

  @BeforeEach
  void clean(TestServices services) throws SQLException {
    TestDb.of(services).truncate();
  }

  @Test
  void startedWorker_registersItsRowAndActorsAndRemovesTheRowOnClose(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    String id;
    try (TaskQ taskq =
        db.taskq(db.config().workerConcurrency(3).workerQueues("default", "extra"))) {
      taskq.register(
          Actor.builder("mailer", io.taskq.PayloadCodec.rawJson(), (p, c) -> null)
              .queue("mail")
              .build());
      taskq.start();
      id = taskq.workerId();
      assertThat(id).matches("[a-z0-9]{16}");
      List<Map<String, Object>> rows =
          db.rows(
              db.sql(
                  "SELECT id, hostname, pid, array_to_string(queues, ',') AS queues,"
                      + " concurrency FROM {schema}.workers"));
      assertThat(rows)
          .singleElement()
          .satisfies(
              w -> {
                assertThat(w.get("id")).isEqualTo(id);
                assertThat(w.get("pid")).isEqualTo(ProcessHandle.current().pid());
                assertThat(w.get("queues")).isEqualTo("default,extra,mail");
                assertThat(w.get("concurrency")).isEqualTo(3);
                assertThat((String) w.get("hostname")).isNotBlank();
              });
      assertThat(db.rows(db.sql("SELECT actor, queue, enabled FROM {schema}.actor_config")))
          .singleElement()
          .isEqualTo(Map.of("actor", "mailer", "queue", "mail", "enabled", true));
      Instant first = heartbeatAt(db, id);
      await().atMost(Duration.ofSeconds(10)).until(() -> heartbeatAt(db, id).isAfter(first));
    }
    assertThat(db.count("workers")).isZero();
  }

  @Test
  void heartbeat_renewsTheLeaseOfARunningJob(TestServices services) throws Exception {
    TestDb db = TestDb.of(services);
    long job = db.enqueueOne("slow", RetryPolicy.defaults());
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch finish = new CountDownLatch(1);
    String workerId;
    try (TaskQ taskq = db.taskq()) {
      taskq.register(
          Actor.rawJson(
              "slow",
              (json, ctx) -> {
                entered.countDown();
                finish.await(30, TimeUnit.SECONDS);
                return null;
              }));
      taskq.start();
      workerId = taskq.workerId();
      assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
      Map<String, Object> claimed = db.job(job);
      assertThat(claimed.get("locked_by")).isEqualTo(workerId);
      assertThat(claimed.get("lease_token")).isNotNull();
      Instant lease = (Instant) claimed.get("lock_expires_at");
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> ((Instant) db.job(job).get("lock_expires_at")).isAfter(lease));
      assertThat(db.job(job).get("lease_token")).isEqualTo(claimed.get("lease_token"));
      finish.countDown();
      await().atMost(Duration.ofSeconds(10)).until(() -> db.status(job).equals("succeeded"));
      assertThat(db.attempts(job))
          .singleElement()
          .satisfies(a -> assertThat(a.get("worker_id")).isEqualTo(workerId));
    }
    // Deregistration keeps the attempt with its worker reference cleared (ON DELETE SET NULL).
    assertThat(db.attempts(job))
        .singleElement()
        .satisfies(a -> assertThat(a.get("worker_id")).isNull());
  }

  @Test
  void registeringAfterStart_isRefused(TestServices services) throws Exception {
    TestDb db = TestDb.of(services);
    try (TaskQ taskq = db.taskq()) {
      taskq.register(Actor.rawJson("a", (json, ctx) -> null));
      org.assertj.core.api.Assertions.assertThatThrownBy(
              () -> taskq.register(Actor.rawJson("a", (json, ctx) -> null)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("'a' is already registered");
      taskq.start();
      org.assertj.core.api.Assertions.assertThatThrownBy(
              () -> taskq.register(Actor.rawJson("b", (json, ctx) -> null)))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("before start()");
      org.assertj.core.api.Assertions.assertThatThrownBy(taskq::start)
          .isInstanceOf(IllegalStateException.class);
    }
  }

  @Test
  void startWithoutActors_isRefused(TestServices services) {
    TestDb db = TestDb.of(services);
    try (TaskQ taskq = db.taskq()) {
      org.assertj.core.api.Assertions.assertThatThrownBy(taskq::start)
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("register at least one actor");
    }
  }

  private static Instant heartbeatAt(TestDb db, String id) throws SQLException {
    return (Instant)
        db.rows(db.sql("SELECT heartbeat_at FROM {schema}.workers WHERE id = ?"), id)
            .get(0)
            .get("heartbeat_at");
  }
}
