package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.taskq.postgres.internal.TestHooks;
import io.taskq.postgres.internal.worker.WorkerProbe;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The worker's loops survive database failures (Q1, Q2): faults fed through the seams into the real
 * claim, completion and heartbeat loops are retried, and nothing is lost.
 */
@TaskQTest
@Tag("Q1")
@Tag("L4")
@Tag("L5")
class LoopFaultsTest {
  @BeforeAll
  static void migrate(TestServices services) {
    TestDb.of(services).migrate();
  }

  @BeforeEach
  void clean(TestServices services) throws SQLException {
    TestDb.of(services).truncate();
  }

  @Test
  void failingCompletionWrites_areRetriedAndNoOutcomeIsLost(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    AtomicInteger runs = new AtomicInteger();
    try (TaskQ taskq = db.taskq()) {
      taskq.register(Actor.rawJson("flush", (json, ctx) -> runs.incrementAndGet()));
      taskq.start();
      WorkerProbe worker = TestHooks.of(taskq).worker();
      TestHooks.arm(worker.faults().complete(), 3);
      List<Long> ids = db.enqueue("flush", "default", 20, RetryPolicy.defaults());
      db.notifyWake();
      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> db.count("jobs WHERE status = 'succeeded'") == ids.size());
      assertThat(worker.faults().complete().fired()).isEqualTo(3);
      assertThat(worker.faults().complete().remaining()).isZero();
    }
    assertThat(runs).hasValue(20);
    assertThat(db.count("job_attempt_history")).isEqualTo(20);
  }

  @Test
  void completionsStillFailingAtShutdown_areRecordedOnceTheDatabaseAnswers(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    AtomicInteger runs = new AtomicInteger();
    TaskQ taskq = db.taskq();
    taskq.register(Actor.rawJson("late", (json, ctx) -> runs.incrementAndGet()));
    taskq.start();
    WorkerProbe worker = TestHooks.of(taskq).worker();
    TestHooks.arm(worker.faults().complete(), 6);
    List<Long> ids = db.enqueue("late", "default", 5, RetryPolicy.defaults());
    db.notifyWake();
    await().atMost(Duration.ofSeconds(10)).until(() -> runs.get() == 5);
    taskq.close();
    assertThat(worker.faults().complete().remaining()).isZero();
    for (long id : ids) {
      assertThat(db.status(id)).isEqualTo("succeeded");
    }
  }

  @Test
  void failingClaims_areRetriedWithBackoff(TestServices services) throws Exception {
    TestDb db = TestDb.of(services);
    try (TaskQ taskq = db.taskq()) {
      taskq.register(Actor.rawJson("claimed", (json, ctx) -> null));
      taskq.start();
      WorkerProbe worker = TestHooks.of(taskq).worker();
      TestHooks.arm(worker.faults().claim(), 4);
      // Wait for the first armed claim to fail before enqueueing: a claim that passed the seam
      // just before arm() could otherwise take the job and end the test with faults unconsumed.
      db.notifyWake();
      await().atMost(Duration.ofSeconds(20)).until(() -> worker.faults().claim().fired() >= 1);
      long id = db.enqueueOne("claimed", RetryPolicy.defaults());
      db.notifyWake();
      await().atMost(Duration.ofSeconds(20)).until(() -> db.status(id).equals("succeeded"));
      assertThat(worker.faults().claim().fired()).isEqualTo(4);
    }
  }

  @Test
  void failingHeartbeats_doNotStopTheHeartbeat(TestServices services) throws Exception {
    TestDb db = TestDb.of(services);
    try (TaskQ taskq = db.taskq()) {
      taskq.register(Actor.rawJson("beat", (json, ctx) -> null));
      taskq.start();
      WorkerProbe worker = TestHooks.of(taskq).worker();
      TestHooks.arm(worker.faults().heartbeat(), 3);
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> worker.faults().heartbeat().remaining() == 0);
      long before = worker.heartbeats();
      await().atMost(Duration.ofSeconds(10)).until(() -> worker.heartbeats() > before);
      assertThat(worker.faults().heartbeat().fired()).isEqualTo(3);
    }
  }

  @Test
  void databaseUnreachableThroughShutdown_abandonsTheOutcomesAfterALeasePeriod(
      TestServices services) throws Exception {
    TestDb db = TestDb.of(services);
    AtomicInteger runs = new AtomicInteger();
    TaskQ taskq = db.taskq(db.config().leasePeriod(Duration.ofSeconds(1)));
    taskq.register(Actor.rawJson("stuck", (json, ctx) -> runs.incrementAndGet()));
    taskq.start();
    WorkerProbe worker = TestHooks.of(taskq).worker();
    TestHooks.arm(worker.faults().complete(), 1_000);
    long id = db.enqueueOne("stuck", RetryPolicy.defaults());
    db.notifyWake();
    await().atMost(Duration.ofSeconds(10)).until(() -> runs.get() == 1);
    taskq.close();
    // close() returned although nothing could be recorded; the lease will lapse and S1 reclaims.
    assertThat(worker.faults().complete().fired()).isPositive();
    assertThat(worker.faults().complete().remaining()).isPositive();
    assertThat(worker.held()).isZero();
    assertThat(db.status(id)).isEqualTo("running");
    assertThat(db.attempts(id)).isEmpty();
  }
}
