package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import io.taskq.RetryPolicy.Backoff;
import io.taskq.operations.AttemptRecord;
import io.taskq.operations.JobDetail;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A6 against real PostgreSQL: an attempt past its timeout (the actor's, or the job's own) has its
 * handler interrupted and fails with error class {@code AttemptTimeout} at once: the row leaves
 * {@code running} and its lease is released long before the lease period (10 s here), and the job
 * retries through its stamped policy. A handler that ignores the interrupt keeps its handler slot
 * until it returns, but not the job.
 */
@TaskQTest
@Tag("A6")
class AttemptTimeoutTest {
  /** The lease period of {@link TestDb#config()}: a release by lease expiry takes this long. */
  private static final Duration LEASE = Duration.ofSeconds(10);

  private static final RetryPolicy QUICK_RETRY =
      RetryPolicy.of(Backoff.CONSTANT, Duration.ofMillis(100), Duration.ofMillis(100), 0, 3);

  @BeforeAll
  static void migrate(TestServices services) {
    TestDb.of(services).migrate();
  }

  @BeforeEach
  void clean(TestServices services) throws SQLException {
    TestDb.of(services).truncate();
  }

  @Test
  void aTimedOutAttempt_isInterrupted_failsWithAttemptTimeout_freesItsLeaseAtOnce_andRetries(
      TestServices services) throws Exception {
    TestDb db = TestDb.of(services);
    long id = db.enqueueOne("slow", QUICK_RETRY);
    AtomicBoolean interrupted = new AtomicBoolean();
    AtomicBoolean cancelFlagSeen = new AtomicBoolean();
    AtomicLong firstStarted = new AtomicLong();
    try (TaskQ taskq = db.taskq(db.config().leasePeriod(LEASE))) {
      taskq.register(
          Actor.builder(
                  "slow",
                  PayloadCodec.rawJson(),
                  (String json, JobContext ctx) -> {
                    if (ctx.attempt() == 1) {
                      firstStarted.set(System.nanoTime());
                      try {
                        Thread.sleep(60_000);
                      } catch (InterruptedException e) {
                        interrupted.set(true);
                        cancelFlagSeen.set(ctx.isCancelRequested());
                        throw e;
                      }
                    }
                    return "\"done on attempt " + ctx.attempt() + "\"";
                  })
              .attemptTimeout(Duration.ofMillis(300))
              .build());
      taskq.start();

      // The first attempt's row is out of 'running', its lease gone, well before the lease period.
      await()
          .atMost(Duration.ofSeconds(3))
          .pollInterval(Duration.ofMillis(20))
          .until(() -> firstStarted.get() != 0 && !db.attempts(id).isEmpty());
      long freedAfterMs = (System.nanoTime() - firstStarted.get()) / 1_000_000;
      assertThat(freedAfterMs).isLessThan(LEASE.toMillis() / 4);
      Map<String, Object> first = db.attempts(id).get(0);
      assertThat(first)
          .containsEntry("attempt", 1)
          .containsEntry("outcome", "failed")
          .containsEntry("error_class", "AttemptTimeout");
      assertThat((String) first.get("error_message"))
          .isEqualTo(
              "attempt 1 ran past its attempt timeout of 300 ms; the handler was interrupted");
      // Where the handler was when its time ran out.
      assertThat((String) first.get("error_stack")).contains("Thread.sleep");

      await().atMost(Duration.ofSeconds(10)).until(() -> db.status(id).equals("succeeded"));
      assertThat(interrupted).isTrue();
      assertThat(cancelFlagSeen).isTrue();
      Map<String, Object> job = db.job(id);
      assertThat(job).containsEntry("attempt", 2).containsEntry("error_class", "AttemptTimeout");
      assertThat(job.get("lock_expires_at")).isNull();
      assertThat(db.events(id))
          .extracting(e -> e.get("kind") + "/" + e.get("error_class"))
          .containsExactly("retried/AttemptTimeout");
      JobDetail detail = taskq.operations().detail(id).orElseThrow();
      assertThat(detail.attempts())
          .extracting(AttemptRecord::outcome, AttemptRecord::errorClass)
          .containsExactly(tuple("failed", "AttemptTimeout"), tuple("succeeded", null));
    }
  }

  @Test
  void aHandlerIgnoringTheInterrupt_losesTheJobAtOnce_butKeepsItsSlotUntilItReturns(
      TestServices services) throws Exception {
    TestDb db = TestDb.of(services);
    long id = db.enqueueOne("stubborn", QUICK_RETRY);
    AtomicBoolean spinning = new AtomicBoolean();
    AtomicLong firstReturned = new AtomicLong();
    AtomicLong secondStarted = new AtomicLong();
    try (TaskQ taskq = db.taskq(db.config().leasePeriod(LEASE).workerConcurrency(1))) {
      taskq.register(
          Actor.builder(
                  "stubborn",
                  PayloadCodec.rawJson(),
                  (String json, JobContext ctx) -> {
                    if (ctx.attempt() == 1) {
                      spinning.set(true);
                      long until = System.nanoTime() + 2_500_000_000L;
                      while (System.nanoTime() < until) {
                        Thread.onSpinWait(); // deaf to interrupts
                      }
                      spinning.set(false);
                      firstReturned.set(System.nanoTime());
                      return null;
                    }
                    secondStarted.compareAndSet(0, System.nanoTime());
                    return null;
                  })
              .attemptTimeout(Duration.ofMillis(300))
              .build());
      taskq.start();

      // While the first handler still spins, its attempt is failed and the row is no longer held.
      await()
          .atMost(Duration.ofSeconds(2))
          .pollInterval(Duration.ofMillis(20))
          .until(() -> !db.attempts(id).isEmpty());
      assertThat(spinning).as("the first handler still runs").isTrue();
      Map<String, Object> job = db.job(id);
      assertThat(job.get("status")).isEqualTo("pending");
      assertThat(job.get("locked_by")).isNull();
      assertThat(job.get("lock_expires_at")).isNull();
      assertThat(db.attempts(id).get(0)).containsEntry("error_class", "AttemptTimeout");

      await().atMost(Duration.ofSeconds(10)).until(() -> db.status(id).equals("succeeded"));
      // One handler slot: the retry waited for the stubborn handler to give its thread back.
      assertThat(secondStarted.get() - firstReturned.get()).isPositive();
      assertThat(db.job(id)).containsEntry("attempt", 2);
    }
  }

  @Test
  void aQuickHandler_isNotTouchedByItsTimeout(TestServices services) throws Exception {
    TestDb db = TestDb.of(services);
    long id = db.enqueueOne("quick", QUICK_RETRY);
    try (TaskQ taskq = db.taskq()) {
      taskq.register(
          Actor.builder(
                  "quick",
                  PayloadCodec.rawJson(),
                  (String json, JobContext ctx) -> {
                    Thread.sleep(50);
                    return null;
                  })
              .attemptTimeout(Duration.ofMillis(200))
              .build());
      taskq.start();
      await().atMost(Duration.ofSeconds(10)).until(() -> db.status(id).equals("succeeded"));
      Thread.sleep(400); // past the timeout: a timer left armed would fire now
    }
    assertThat(db.job(id)).containsEntry("status", "succeeded").containsEntry("attempt", 1);
    assertThat(db.attempts(id)).extracting(a -> a.get("outcome")).containsExactly("succeeded");
  }

  @Test
  void aJobsOwnTimeout_overridesItsActors(TestServices services) throws Exception {
    TestDb db = TestDb.of(services);
    AtomicLong interruptedAtMs = new AtomicLong(-1);
    try (TaskQ taskq = db.taskq(db.config().leasePeriod(LEASE))) {
      taskq.register(
          Actor.builder(
                  "report",
                  PayloadCodec.rawJson(),
                  (String json, JobContext ctx) -> {
                    long started = System.nanoTime();
                    if (ctx.attempt() == 1) {
                      try {
                        Thread.sleep(60_000);
                      } catch (InterruptedException e) {
                        interruptedAtMs.set((System.nanoTime() - started) / 1_000_000);
                        throw e;
                      }
                    }
                    return null;
                  })
              .attemptTimeout(Duration.ofMinutes(5))
              .build());
      taskq.start();
      long id =
          taskq
              .jobs()
              .enqueue(
                  JobRequest.builder("report")
                      .attemptTimeout(Duration.ofMillis(400))
                      .retryPolicy(QUICK_RETRY)
                      .build());
      assertThat(db.job(id)).containsEntry("attempt_timeout_ms", 400L);
      await().atMost(Duration.ofSeconds(10)).until(() -> db.status(id).equals("succeeded"));
      assertThat(interruptedAtMs.get()).isBetween(350L, 3000L);
      assertThat(db.attempts(id))
          .extracting(a -> a.get("outcome") + "/" + a.get("error_class"))
          .containsExactly("failed/AttemptTimeout", "succeeded/null");
    }
  }
}
