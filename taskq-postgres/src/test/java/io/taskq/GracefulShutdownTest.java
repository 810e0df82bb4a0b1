package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Graceful shutdown (L11): stop claiming, let running handlers finish within the grace period,
 * record every outcome before {@code close()} returns, and hand the unfinished jobs back so another
 * worker takes them at once, without using up an attempt.
 */
@TaskQTest
@Tag("L11")
@Tag("B6")
class GracefulShutdownTest {
  @BeforeAll
  static void migrate(TestServices services) {
    TestDb.of(services).migrate();
  }

  @BeforeEach
  void clean(TestServices services) throws SQLException {
    TestDb.of(services).truncate();
  }

  @Test
  void handlersFinishingWithinTheGrace_areRecordedBeforeCloseReturns(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    List<Long> ids = db.enqueue("finishing", "default", 4, RetryPolicy.defaults());
    CountDownLatch allRunning = new CountDownLatch(4);
    CountDownLatch finish = new CountDownLatch(1);
    TaskQ taskq = db.taskq(db.config().workerConcurrency(4).shutdownGrace(Duration.ofSeconds(20)));
    taskq.register(
        Actor.rawJson(
            "finishing",
            (json, ctx) -> {
              allRunning.countDown();
              finish.await(30, TimeUnit.SECONDS);
              return "{\"done\": true}";
            }));
    taskq.start();
    assertThat(allRunning.await(10, TimeUnit.SECONDS)).isTrue();
    Thread closer = new Thread(taskq::close);
    closer.start();
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> closer.getState() == Thread.State.TIMED_WAITING);
    finish.countDown();
    closer.join(30_000);
    assertThat(closer.isAlive()).isFalse();
    for (long id : ids) {
      assertThat(db.status(id)).isEqualTo("succeeded");
    }
    assertThat(db.count("workers")).isZero();
  }

  @Test
  void handlersOutlivingTheGrace_areReleasedAndFinishedByAnotherWorker(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    List<Long> ids = db.enqueue("slow", "default", 12, RetryPolicy.defaults().withMaxAttempts(1));
    CountDownLatch fourRunning = new CountDownLatch(4);
    AtomicInteger interrupted = new AtomicInteger();
    try (TaskQ first =
        db.taskq(db.config().workerConcurrency(4).shutdownGrace(Duration.ofMillis(300)))) {
      first.register(
          Actor.rawJson(
              "slow",
              (json, ctx) -> {
                fourRunning.countDown();
                try {
                  new CountDownLatch(1).await(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                  interrupted.incrementAndGet();
                  throw e;
                }
                return null;
              }));
      first.start();
      assertThat(fourRunning.await(10, TimeUnit.SECONDS)).isTrue();
    }
    await().atMost(Duration.ofSeconds(5)).until(() -> interrupted.get() == 4);
    assertThat(db.count("jobs WHERE status = 'running'")).isZero();
    List<Map<String, Object>> released =
        db.rows(db.sql("SELECT job_id FROM {schema}.job_attempts WHERE outcome = 'released'"));
    assertThat(released).hasSize(4);
    long releasedJob = (Long) released.get(0).get("job_id");
    assertThat(db.job(releasedJob).get("status")).isEqualTo("pending");
    assertThat(db.job(releasedJob).get("attempt")).isEqualTo(0);
    assertThat(db.events(releasedJob)).extracting(e -> e.get("kind")).containsExactly("released");

    Map<Long, AtomicInteger> runs = new ConcurrentHashMap<>();
    try (TaskQ second = db.taskq(db.config().workerConcurrency(4))) {
      second.register(
          Actor.rawJson(
              "slow",
              (json, ctx) -> {
                runs.computeIfAbsent(ctx.jobId(), k -> new AtomicInteger()).incrementAndGet();
                return null;
              }));
      second.start();
      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> db.count("jobs WHERE status = 'succeeded'") == ids.size());
    }
    assertThat(runs.keySet()).containsExactlyInAnyOrderElementsOf(ids);
    assertThat(runs.values()).allSatisfy(n -> assertThat(n.get()).isEqualTo(1));
    assertThat(db.count("job_attempt_history WHERE outcome = 'succeeded'")).isEqualTo(ids.size());
    // Max attempts 1, yet the released jobs ran: releasing did not use up their only attempt.
    assertThat(db.job(releasedJob).get("attempt")).isEqualTo(1);
  }

  @Test
  void closeMidStream_losesNothing(TestServices services) throws Exception {
    TestDb db = TestDb.of(services);
    int jobs = 300;
    List<Long> ids = db.enqueue("stream", "default", jobs, RetryPolicy.defaults());
    CountDownLatch someDone = new CountDownLatch(50);
    Actor<String> actor =
        Actor.rawJson(
            "stream",
            (json, ctx) -> {
              someDone.countDown();
              new CountDownLatch(1).await(2, TimeUnit.MILLISECONDS);
              return null;
            });
    try (TaskQ first =
        db.taskq(db.config().workerConcurrency(4).shutdownGrace(Duration.ofMillis(1)))) {
      first.register(actor);
      first.start();
      assertThat(someDone.await(20, TimeUnit.SECONDS)).isTrue();
    }
    assertThat(db.count("jobs WHERE status = 'running'")).isZero();
    try (TaskQ second = db.taskq(db.config().workerConcurrency(4))) {
      second.register(actor);
      second.start();
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> db.count("jobs WHERE status = 'succeeded'") == jobs);
    }
    assertThat(db.count("job_attempt_history WHERE outcome = 'succeeded'")).isEqualTo(jobs);
    assertThat(
            db.queryLong(
                db.sql(
                    "SELECT count(DISTINCT job_id) FROM {schema}.job_attempt_history"
                        + " WHERE outcome = 'succeeded'")))
        .isEqualTo(ids.size());
  }

  @Test
  void claimedJobsWaitingForAHandler_areReleasedAtOnceWithoutRunning(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    List<Long> ids = db.enqueue("queued", "default", 60, RetryPolicy.defaults().withMaxAttempts(1));
    AtomicInteger calls = new AtomicInteger();
    CountDownLatch blocked = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Map<Long, AtomicInteger> firstRuns = new ConcurrentHashMap<>();
    try (TaskQ first =
        db.taskq(db.config().workerConcurrency(1).shutdownGrace(Duration.ofSeconds(20)))) {
      first.register(
          Actor.rawJson(
              "queued",
              (json, ctx) -> {
                firstRuns.computeIfAbsent(ctx.jobId(), k -> new AtomicInteger()).incrementAndGet();
                // Short jobs first (the worker learns they are short and claims ahead), then one
                // that holds the only handler until shutdown has begun.
                if (calls.incrementAndGet() == 20) {
                  blocked.countDown();
                  release.await(30, TimeUnit.SECONDS);
                }
                return null;
              }));
      first.start();
      assertThat(blocked.await(10, TimeUnit.SECONDS)).isTrue();
      // The look-ahead: claimed jobs beyond the single busy handler.
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> db.count("jobs WHERE status = 'running'") > 1);
      Thread closer = new Thread(first::close);
      closer.start();
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> db.count("job_attempts WHERE outcome = 'released'") > 0);
      release.countDown();
      closer.join(30_000);
      assertThat(closer.isAlive()).isFalse();
    }

    assertThat(db.count("jobs WHERE status = 'running'")).isZero();
    assertThat(db.count("jobs WHERE status = 'succeeded'")).isEqualTo(20);
    List<Map<String, Object>> released =
        db.rows(db.sql("SELECT job_id FROM {schema}.job_attempts WHERE outcome = 'released'"));
    assertThat(released).isNotEmpty();
    for (Map<String, Object> row : released) {
      long id = (Long) row.get("job_id");
      assertThat(firstRuns).doesNotContainKey(id);
      assertThat(db.job(id).get("status")).isEqualTo("pending");
      assertThat(db.job(id).get("attempt")).isEqualTo(0);
    }
    assertThat(firstRuns.values()).allSatisfy(n -> assertThat(n.get()).isEqualTo(1));
    assertThat(ids).hasSize(60);
  }
}
