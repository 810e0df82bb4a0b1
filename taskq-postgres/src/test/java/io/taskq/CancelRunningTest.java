package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.taskq.bulk.CancelResult;
import io.taskq.core.internal.NotifyChannels;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Cancelling a running job (L8): the handler observes the request, and whatever it then does, the
 * job ends {@code cancelled} with its attempt and event rows.
 */
@TaskQTest
@Tag("L8")
@Tag("B6")
class CancelRunningTest {
  @BeforeAll
  static void migrate(TestServices services) {
    TestDb.of(services).migrate();
  }

  @BeforeEach
  void clean(TestServices services) throws SQLException {
    TestDb.of(services).truncate();
  }

  /** What a cancel of a running job does to the row (JobsClient.cancel). */
  private static void requestCancel(TestDb db, long id) throws SQLException {
    db.execute(
        db.sql(
            "UPDATE {schema}.jobs SET cancel_requested_at = clock_timestamp() WHERE id = " + id));
  }

  private static Actor<String> waitsForCancel(
      String name, CountDownLatch entered, AtomicBoolean observed, boolean throwOnCancel) {
    return Actor.rawJson(
        name,
        (json, ctx) -> {
          entered.countDown();
          await().atMost(Duration.ofSeconds(30)).until(ctx::isCancelRequested);
          observed.set(true);
          if (throwOnCancel) {
            throw new IllegalStateException("stopped on cancel");
          }
          return "{\"partial\": true}";
        });
  }

  @Test
  void cancelNotifiedToTheWorker_reachesTheHandlerAndEndsCancelled(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    long id = db.enqueueOne("cancel-me", RetryPolicy.defaults());
    CountDownLatch entered = new CountDownLatch(1);
    AtomicBoolean observed = new AtomicBoolean();
    // Heartbeats every 30 s: only the notification to the worker's channel can deliver the cancel.
    try (TaskQ taskq =
        db.taskq(
            db.config()
                .heartbeatInterval(Duration.ofSeconds(30))
                .leasePeriod(Duration.ofMinutes(2)))) {
      taskq.register(waitsForCancel("cancel-me", entered, observed, false));
      taskq.start();
      assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
      requestCancel(db, id);
      db.execute(
          "SELECT pg_notify('"
              + NotifyChannels.of(db.schema).worker(taskq.workerId()).name()
              + "', '"
              + id
              + "')");
      await().atMost(Duration.ofSeconds(10)).until(() -> db.status(id).equals("cancelled"));
    }
    assertThat(observed).isTrue();
    assertThat(db.job(id).get("result")).isNull();
    assertThat(db.job(id).get("finished_at")).isNotNull();
    assertThat(db.attempts(id))
        .singleElement()
        .satisfies(a -> assertThat(a.get("outcome")).isEqualTo("cancelled"));
    assertThat(db.events(id))
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.get("kind")).isEqualTo("cancelled");
              assertThat(e.get("disposition")).isEqualTo("cancelled");
            });
  }

  @Test
  void cancelThroughTheClient_reachesTheHandlerLongBeforeTheNextHeartbeat(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    long id = db.enqueueOne("cancel-at-once", RetryPolicy.defaults());
    CountDownLatch entered = new CountDownLatch(1);
    AtomicBoolean observed = new AtomicBoolean();
    // Heartbeats every 20 s: only the NOTIFY the cancel statement sends can deliver it in time.
    try (TaskQ taskq =
        db.taskq(
            db.config()
                .heartbeatInterval(Duration.ofSeconds(20))
                .leasePeriod(Duration.ofMinutes(2)))) {
      taskq.register(waitsForCancel("cancel-at-once", entered, observed, false));
      taskq.start();
      assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(taskq.jobs().cancel(id)).isEqualTo(CancelResult.CANCEL_REQUESTED);
      await().atMost(Duration.ofSeconds(5)).untilTrue(observed);
      await().atMost(Duration.ofSeconds(5)).until(() -> db.status(id).equals("cancelled"));
    }
    assertThat(db.attempts(id)).extracting(a -> a.get("outcome")).containsExactly("cancelled");
  }

  @Test
  void cancelSeenByTheHeartbeat_endsCancelledEvenWhenTheHandlerThrows(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    long id = db.enqueueOne("cancel-throws", RetryPolicy.defaults());
    CountDownLatch entered = new CountDownLatch(1);
    AtomicBoolean observed = new AtomicBoolean();
    try (TaskQ taskq = db.taskq()) {
      taskq.register(waitsForCancel("cancel-throws", entered, observed, true));
      taskq.start();
      assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(taskq.jobs().cancel(id)).isEqualTo(CancelResult.CANCEL_REQUESTED);
      await().atMost(Duration.ofSeconds(10)).until(() -> db.status(id).equals("cancelled"));
    }
    assertThat(observed).isTrue();
    assertThat(db.job(id).get("attempt")).isEqualTo(1);
    assertThat(db.job(id).get("error_class")).isEqualTo("java.lang.IllegalStateException");
    assertThat(db.events(id))
        .extracting(e -> e.get("kind"))
        .containsExactly("cancel_requested", "cancelled");
  }
}
