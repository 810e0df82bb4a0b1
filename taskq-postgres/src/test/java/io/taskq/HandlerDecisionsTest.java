package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.taskq.RetryPolicy.Backoff;
import io.taskq.operations.EventRecord;
import io.taskq.operations.JobDetail;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A5 against real PostgreSQL: a handler snoozes its job (back after the delay, no attempt used, up
 * to its actor's bound; past it a snooze counts as an attempt) or discards it (failed for good with
 * the reason, no retry); both recorded as attempt rows and events the job detail shows.
 */
@TaskQTest
@Tag("A5")
class HandlerDecisionsTest {
  private static RetryPolicy attempts(int max) {
    return RetryPolicy.of(Backoff.CONSTANT, Duration.ofMillis(50), Duration.ofMillis(50), 0, max);
  }

  @BeforeAll
  static void migrate(TestServices services) {
    TestDb.of(services).migrate();
  }

  @BeforeEach
  void clean(TestServices services) throws SQLException {
    TestDb.of(services).truncate();
  }

  @Test
  void aSnooze_usesNoAttempt_reschedulesAtNowPlusTheDelay_andTheJobRunsAgain(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    long id = db.enqueueOne("waiter", attempts(3));
    List<Integer> attemptsSeen = new CopyOnWriteArrayList<>();
    List<Instant> runs = new CopyOnWriteArrayList<>();
    AtomicReference<Instant> snoozedAt = new AtomicReference<>();
    try (TaskQ taskq = db.taskq()) {
      taskq.register(
          Actor.rawJson(
              "waiter",
              (json, ctx) -> {
                attemptsSeen.add(ctx.attempt());
                runs.add(Instant.now());
                if (runs.size() == 1) {
                  snoozedAt.set(Instant.now());
                  throw new SnoozeException(Duration.ofMillis(1500));
                }
                return null;
              }));
      taskq.start();

      await().atMost(Duration.ofSeconds(10)).until(() -> !db.attempts(id).isEmpty());
      Instant recordedBy = Instant.now();
      Map<String, Object> job = db.job(id);
      assertThat(job)
          .containsEntry("status", "pending")
          .containsEntry("attempt", 0)
          .containsEntry("snoozes", 1);
      assertThat(job.get("locked_by")).isNull();
      assertThat((Instant) job.get("run_at"))
          .isAfter(snoozedAt.get().plusMillis(1400))
          .isBefore(recordedBy.plusMillis(1600));
      assertThat(db.attempts(id).get(0))
          .containsEntry("attempt", 1)
          .containsEntry("outcome", "snoozed");

      await().atMost(Duration.ofSeconds(10)).until(() -> db.status(id).equals("succeeded"));
      assertThat(attemptsSeen).containsExactly(1, 1);
      assertThat(Duration.between(runs.get(0), runs.get(1))).isGreaterThan(Duration.ofMillis(1400));
      assertThat(db.job(id)).containsEntry("attempt", 1).containsEntry("snoozes", 1);
      JobDetail detail = taskq.operations().detail(id).orElseThrow();
      assertThat(detail.attempts())
          .extracting(a -> a.outcome())
          .containsExactly("snoozed", "succeeded");
      assertThat(detail.events())
          .singleElement()
          .satisfies(
              e -> {
                assertThat(e.kind()).isEqualTo("snoozed");
                assertThat(e.disposition()).isEqualTo("pending");
                assertThat(e.note())
                    .isEqualTo("snoozed for 00:00:01.5; snooze 1 of 25 free, no attempt used");
              });
    }
  }

  @Test
  void theSnoozesUsed_showInTheJobsInfoAndDetail(TestServices services) throws Exception {
    TestDb db = TestDb.of(services);
    long snoozer = db.enqueueOne("twice", attempts(3));
    AtomicInteger runs = new AtomicInteger();
    try (TaskQ taskq = db.taskq()) {
      taskq.register(
          Actor.rawJson(
              "twice",
              (json, ctx) -> {
                if (ctx.jobId() == snoozer && runs.incrementAndGet() <= 2) {
                  throw new SnoozeException(Duration.ZERO);
                }
                return null;
              }));
      long plain = taskq.jobs().enqueue(JobRequest.builder("twice").build());
      taskq.start();
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () -> db.status(snoozer).equals("succeeded") && db.status(plain).equals("succeeded"));

      JobInfo info = taskq.jobs().find(snoozer).orElseThrow();
      assertThat(info.snoozes()).isEqualTo(2);
      assertThat(info.attempt()).as("the two snoozes were free").isEqualTo(1);
      assertThat(taskq.operations().detail(snoozer).orElseThrow().job().snoozes()).isEqualTo(2);
      assertThat(taskq.jobs().find(plain).orElseThrow().snoozes())
          .as("a job never snoozed")
          .isZero();
    }
  }

  @Test
  void pastTheActorsBound_aSnoozeCountsAsAnAttempt(TestServices services) throws Exception {
    TestDb db = TestDb.of(services);
    long id = db.enqueueOne("poller", attempts(5));
    List<Integer> attemptsSeen = new CopyOnWriteArrayList<>();
    try (TaskQ taskq = db.taskq()) {
      taskq.register(
          Actor.builder(
                  "poller",
                  PayloadCodec.rawJson(),
                  (String json, JobContext ctx) -> {
                    attemptsSeen.add(ctx.attempt());
                    if (attemptsSeen.size() <= 3) {
                      throw new SnoozeException(Duration.ZERO);
                    }
                    return null;
                  })
              .maxSnoozes(2)
              .build());
      taskq.start();
      await().atMost(Duration.ofSeconds(10)).until(() -> db.status(id).equals("succeeded"));
    }
    // Two free snoozes keep attempt 1; the third (snooze N+1) uses it, so the next run is attempt
    // 2.
    assertThat(attemptsSeen).containsExactly(1, 1, 1, 2);
    assertThat(db.job(id)).containsEntry("attempt", 2).containsEntry("snoozes", 3);
    assertThat(db.attempts(id))
        .extracting(a -> a.get("attempt") + "/" + a.get("outcome"))
        .containsExactly("1/snoozed", "1/snoozed", "1/snoozed", "2/succeeded");
    assertThat(db.events(id))
        .extracting(e -> (String) e.get("note"))
        .containsExactly(
            "snoozed for 00:00:00; snooze 1 of 2 free, no attempt used",
            "snoozed for 00:00:00; snooze 2 of 2 free, no attempt used",
            "snoozed for 00:00:00; snooze 3, past the 2 free snoozes: counted as attempt 1 of 5");
  }

  @Test
  void pastTheBound_onTheLastAttempt_theJobFailsWithSnoozeLimit(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    long id = db.enqueueOne("forever", attempts(1));
    AtomicInteger runs = new AtomicInteger();
    try (TaskQ taskq = db.taskq()) {
      taskq.register(
          Actor.builder(
                  "forever",
                  PayloadCodec.rawJson(),
                  (String json, JobContext ctx) -> {
                    runs.incrementAndGet();
                    throw new SnoozeException(Duration.ZERO);
                  })
              .maxSnoozes(1)
              .build());
      taskq.start();
      await().atMost(Duration.ofSeconds(10)).until(() -> db.status(id).equals("failed"));
      Thread.sleep(300);
    }
    assertThat(runs).hasValue(2);
    assertThat(db.job(id))
        .containsEntry("attempt", 1)
        .containsEntry("error_class", "SnoozeLimit")
        .containsEntry(
            "error_message",
            "the handler snoozed the job 2 times, past the 1 free snoozes of its actor, and no"
                + " attempt is left");
    assertThat(db.attempts(id))
        .extracting(a -> a.get("outcome"))
        .containsExactly("snoozed", "failed");
    assertThat(db.events(id)).extracting(e -> e.get("kind")).containsExactly("snoozed", "failed");
  }

  @Test
  void aDiscard_endsTheJobFailedWithTheReason_andNoRetry(TestServices services) throws Exception {
    TestDb db = TestDb.of(services);
    long id = db.enqueueOne("orders", attempts(5));
    AtomicInteger runs = new AtomicInteger();
    try (TaskQ taskq = db.taskq()) {
      taskq.register(
          Actor.rawJson(
              "orders",
              (json, ctx) -> {
                runs.incrementAndGet();
                throw new DiscardException("  the order was withdrawn ");
              }));
      taskq.start();
      await().atMost(Duration.ofSeconds(10)).until(() -> db.status(id).equals("failed"));
      Thread.sleep(500); // a retry (50 ms backoff) would have run by now

      assertThat(runs).hasValue(1);
      Map<String, Object> job = db.job(id);
      assertThat(job)
          .containsEntry("attempt", 1)
          .containsEntry("error_class", "Discarded")
          .containsEntry("error_message", "discarded by the handler: the order was withdrawn");
      assertThat(job.get("finished_at")).isNotNull();
      assertThat(job.get("locked_by")).isNull();
      Map<String, Object> attempt = db.attempts(id).get(0);
      assertThat(attempt)
          .containsEntry("outcome", "failed")
          .containsEntry("error_class", "Discarded");
      assertThat((String) attempt.get("error_stack")).contains("DiscardException");
      List<EventRecord> events = taskq.operations().detail(id).orElseThrow().events();
      assertThat(events)
          .singleElement()
          .satisfies(
              e -> {
                assertThat(e.kind()).isEqualTo("discarded");
                assertThat(e.disposition()).isEqualTo("failed");
                assertThat(e.errorClass()).isEqualTo("Discarded");
                assertThat(e.note()).isEqualTo("the order was withdrawn");
              });
    }
  }
}
