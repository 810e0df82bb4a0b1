package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.taskq.RetryPolicy.Backoff;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Retries (L3): every reschedule goes through the job's own stamped policy, computed by the
 * database, and writes its attempt and event rows with the transition (B6). The poll interval is 30
 * s, so only the worker's own due-time wake-up can explain a retry running sooner.
 */
@TaskQTest
@Tag("L3")
@Tag("L1")
@Tag("B6")
class RetryTest {
  private static final Duration MAX_BACKOFF = Duration.ofHours(1);
  private static final Duration TOLERANCE = Duration.ofMillis(50);

  @BeforeAll
  static void migrate(TestServices services) {
    TestDb.of(services).migrate();
  }

  @BeforeEach
  void clean(TestServices services) throws SQLException {
    TestDb.of(services).truncate();
  }

  private static TaskQConfig.Builder worker(TestDb db) {
    return db.config().pollInterval(Duration.ofSeconds(30)).maxRetryBackoff(MAX_BACKOFF);
  }

  private static Actor<String> failingUntil(String name, int succeedOnAttempt) {
    return Actor.rawJson(
        name,
        (json, ctx) -> {
          if (ctx.attempt() < succeedOnAttempt) {
            throw new IllegalStateException("attempt " + ctx.attempt() + " fails");
          }
          return null;
        });
  }

  @Test
  void failingTwiceThenSucceeding_retriesThroughTheStampedPolicy(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    RetryPolicy policy =
        RetryPolicy.of(Backoff.EXPONENTIAL, Duration.ofMillis(200), Duration.ofSeconds(10), 0, 5);
    long id = db.enqueueOne("flaky", policy);
    try (TaskQ taskq = db.taskq(worker(db))) {
      taskq.register(failingUntil("flaky", 3));
      taskq.start();
      await().atMost(Duration.ofSeconds(15)).until(() -> db.status(id).equals("succeeded"));
    }
    List<Map<String, Object>> attempts = db.attempts(id);
    assertThat(attempts)
        .extracting(a -> a.get("outcome"))
        .containsExactly("failed", "failed", "succeeded");
    assertThat(attempts).extracting(a -> a.get("attempt")).containsExactly(1, 2, 3);
    assertThat(attempts.get(0).get("error_class")).isEqualTo("java.lang.IllegalStateException");
    assertThat(attempts.get(1).get("error_message")).isEqualTo("attempt 2 fails");
    assertThat(String.valueOf(attempts.get(1).get("error_stack")))
        .startsWith("java.lang.IllegalStateException: attempt 2 fails")
        .contains("at io.taskq.RetryTest");
    for (int n = 1; n <= 2; n++) {
      Duration delay = policy.delayAfter(n, MAX_BACKOFF, 0);
      Instant failed = (Instant) attempts.get(n - 1).get("finished_at");
      Instant next = (Instant) attempts.get(n).get("started_at");
      assertThat(next).isAfterOrEqualTo(failed.plus(delay).minus(TOLERANCE));
    }
    Instant lastRunAt = (Instant) db.job(id).get("run_at");
    Instant secondFailure = (Instant) attempts.get(1).get("finished_at");
    assertThat(Duration.between(secondFailure, lastRunAt))
        .isBetween(Duration.ofMillis(400).minus(TOLERANCE), Duration.ofMillis(400).plus(TOLERANCE));
    assertThat(db.events(id)).extracting(e -> e.get("kind")).containsExactly("retried", "retried");
    assertThat(db.events(id)).extracting(e -> e.get("disposition")).containsOnly("pending");
    assertThat(db.job(id).get("attempt")).isEqualTo(3);
  }

  @Test
  void exhaustingMaxAttempts_failsTerminally(TestServices services) throws Exception {
    TestDb db = TestDb.of(services);
    RetryPolicy policy =
        RetryPolicy.of(Backoff.CONSTANT, Duration.ofMillis(50), Duration.ofMillis(50), 0, 3);
    long id = db.enqueueOne("doomed", policy);
    try (TaskQ taskq = db.taskq(worker(db))) {
      taskq.register(failingUntil("doomed", Integer.MAX_VALUE));
      taskq.start();
      await().atMost(Duration.ofSeconds(15)).until(() -> db.status(id).equals("failed"));
    }
    Map<String, Object> job = db.job(id);
    assertThat(job.get("attempt")).isEqualTo(3);
    assertThat(job.get("finished_at")).isNotNull();
    assertThat(job.get("locked_by")).isNull();
    assertThat(job.get("error_message")).isEqualTo("attempt 3 fails");
    assertThat(db.attempts(id))
        .extracting(a -> a.get("outcome"))
        .containsExactly("failed", "failed", "failed");
    assertThat(db.events(id))
        .extracting(e -> e.get("kind"))
        .containsExactly("retried", "retried", "failed");
    assertThat(db.events(id).get(2).get("error_class"))
        .isEqualTo("java.lang.IllegalStateException");
  }

  @Test
  @Tag("P6")
  void nonRetryableException_failsTheJobForGoodWithAttemptsLeft(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    RetryPolicy policy =
        RetryPolicy.of(Backoff.CONSTANT, Duration.ofMillis(50), Duration.ofMillis(50), 0, 5);
    long id = db.enqueueOne("refused", policy);
    try (TaskQ taskq = db.taskq(worker(db))) {
      taskq.register(
          Actor.rawJson(
              "refused",
              (json, ctx) -> {
                throw new NonRetryableException("the partner refused this order for good");
              }));
      taskq.start();
      await().atMost(Duration.ofSeconds(15)).until(() -> db.status(id).equals("failed"));
    }
    assertThat(db.job(id).get("attempt")).isEqualTo(1);
    assertThat(db.attempts(id)).extracting(a -> a.get("outcome")).containsExactly("failed");
    assertThat(db.events(id)).extracting(e -> e.get("kind")).containsExactly("failed");
    assertThat(db.job(id).get("error_class")).isEqualTo("io.taskq.NonRetryableException");
    assertThat(db.job(id).get("error_message"))
        .isEqualTo("the partner refused this order for good");
  }

  @Test
  void eachJobFollowsItsOwnPolicy_cappedByMaxRetryBackoff(TestServices services) throws Exception {
    TestDb db = TestDb.of(services);
    RetryPolicy linear =
        RetryPolicy.of(Backoff.LINEAR, Duration.ofMillis(300), Duration.ofSeconds(10), 0, 3);
    RetryPolicy longOne =
        RetryPolicy.of(Backoff.CONSTANT, Duration.ofMinutes(10), Duration.ofMinutes(10), 0, 3);
    long linearId = db.enqueueOne("twice", linear);
    long cappedId = db.enqueueOne("twice", longOne);
    Duration ceiling = Duration.ofMillis(150);
    try (TaskQ taskq = db.taskq(worker(db).maxRetryBackoff(ceiling))) {
      taskq.register(failingUntil("twice", 2));
      taskq.start();
      await()
          .atMost(Duration.ofSeconds(15))
          .until(
              () ->
                  db.status(linearId).equals("succeeded")
                      && db.status(cappedId).equals("succeeded"));
    }
    assertThat(retryGap(db, linearId))
        .isBetween(Duration.ofMillis(150).minus(TOLERANCE), Duration.ofMillis(150).plus(TOLERANCE));
    assertThat(retryGap(db, cappedId)).isBetween(ceiling.minus(TOLERANCE), ceiling.plus(TOLERANCE));
  }

  @Test
  void retryDelay_withoutCeilingUsesThePolicyCurve(TestServices services) throws Exception {
    TestDb db = TestDb.of(services);
    RetryPolicy linear =
        RetryPolicy.of(Backoff.LINEAR, Duration.ofMillis(300), Duration.ofSeconds(10), 0, 3);
    long id = db.enqueueOne("linear", linear);
    try (TaskQ taskq = db.taskq(worker(db))) {
      taskq.register(failingUntil("linear", 2));
      taskq.start();
      await().atMost(Duration.ofSeconds(15)).until(() -> db.status(id).equals("succeeded"));
    }
    Duration expected = linear.delayAfter(1, MAX_BACKOFF, 0);
    assertThat(retryGap(db, id)).isBetween(expected.minus(TOLERANCE), expected.plus(TOLERANCE));
  }

  /** run_at of the retry minus the end of the failed first attempt. */
  private static Duration retryGap(TestDb db, long id) throws SQLException {
    Instant failed = (Instant) db.attempts(id).get(0).get("finished_at");
    return Duration.between(failed, (Instant) db.job(id).get("run_at"));
  }
}
