package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.taskq.feed.FeedCursor;
import io.taskq.feed.FeedFixture;
import io.taskq.feed.ReclaimEventPage;
import io.taskq.spi.JobListener;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The job lifecycle signals reach the application's {@link JobListener} from the real code paths:
 * enqueues (own and caller's connection), each job's start with its database-clock pickup latency,
 * success, failure, and the reclaim feed's poll lag. A listener that throws fails nothing.
 */
@TaskQTest
@Tag("O1")
class JobListenerWiringTest {
  private static final Duration PATIENCE = Duration.ofSeconds(20);

  @BeforeAll
  static void migrate(TestServices services) {
    TestDb.of(services).migrate();
  }

  @BeforeEach
  void clean(TestServices services) throws SQLException {
    TestDb.of(services).truncate();
  }

  /** Records every signal as text, e.g. {@code enqueued mail/q 2}. */
  static final class Recorder implements JobListener {
    final List<String> signals = new CopyOnWriteArrayList<>();
    final Map<String, Duration> pickups = new ConcurrentHashMap<>();
    final List<Duration> feedLags = new CopyOnWriteArrayList<>();

    @Override
    public void jobsEnqueued(String actor, String queue, int count) {
      signals.add("enqueued " + actor + "/" + queue + " " + count);
    }

    @Override
    public void jobStarted(String actor, String queue, Duration pickupLatency) {
      signals.add("started " + actor + "/" + queue);
      pickups.put(actor, pickupLatency);
    }

    @Override
    public void jobSucceeded(String actor, String queue, Duration execution) {
      signals.add("succeeded " + actor + "/" + queue);
    }

    @Override
    public void jobFailed(String actor, String queue, Duration execution) {
      signals.add("failed " + actor + "/" + queue);
    }

    @Override
    public void eventFeedLag(Duration lag) {
      feedLags.add(lag);
    }
  }

  /** Throws on every signal, after counting it. */
  static final class Throwing implements JobListener {
    final AtomicInteger calls = new AtomicInteger();

    private void boom() {
      calls.incrementAndGet();
      throw new IllegalStateException("listener bug");
    }

    @Override
    public void jobsEnqueued(String actor, String queue, int count) {
      boom();
    }

    @Override
    public void jobStarted(String actor, String queue, Duration pickupLatency) {
      boom();
    }

    @Override
    public void jobSucceeded(String actor, String queue, Duration execution) {
      boom();
    }

    @Override
    public void jobFailed(String actor, String queue, Duration execution) {
      boom();
    }

    @Override
    public void eventFeedLag(Duration lag) {
      boom();
    }
  }

  private static TaskQ taskq(TestDb db, DataSource ds, JobListener listener) {
    return TaskQ.builder(ds)
        .config(db.config().build())
        .migrate(false)
        .maintenance(false)
        .jobListener(listener)
        .build();
  }

  private static JobRequest job(String actor, String queue) {
    return JobRequest.builder(actor).queue(queue).maxAttempts(1).build();
  }

  @Test
  void enqueues_areCountedPerActorAndQueue_onOwnAndCallerConnections(TestServices services)
      throws SQLException {
    TestDb db = TestDb.of(services);
    Recorder recorder = new Recorder();
    try (TaskQ taskq = taskq(db, services.dataSource(), recorder)) {
      taskq.jobs().enqueue(job("mail", "q"));
      taskq.jobs().enqueueAll(List.of(job("mail", "q"), job("sms", "q"), job("mail", "q")));
      try (Connection c = services.dataSource().getConnection()) {
        c.setAutoCommit(false);
        taskq.jobs().enqueue(c, job("mail", "other"));
        c.commit();
      }

      assertThat(recorder.signals)
          .containsExactly(
              "enqueued mail/q 1",
              "enqueued mail/q 2",
              "enqueued sms/q 1",
              "enqueued mail/other 1");
    }
  }

  @Test
  void aFailedEnqueue_isNotCounted(TestServices services) {
    TestDb db = TestDb.of(services);
    Recorder recorder = new Recorder();
    try (TaskQ taskq = taskq(db, services.dataSource(), recorder)) {
      JobRequest huge =
          JobRequest.builder("mail").payloadJson("\"" + "x".repeat(2 << 20) + "\"").build();
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> taskq.jobs().enqueue(huge))
          .isInstanceOf(IllegalArgumentException.class);
      assertThat(recorder.signals).isEmpty();
    }
  }

  @Test
  void jobs_reportTheirStartWithADatabaseClockPickupLatency_andTheirOutcome(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    Recorder recorder = new Recorder();
    try (TaskQ taskq = taskq(db, services.dataSource(), recorder)) {
      taskq.register(Actor.rawJson("ok", (json, ctx) -> null));
      taskq.register(
          Actor.rawJson(
              "boom",
              (json, ctx) -> {
                throw new IllegalStateException("handler failed");
              }));
      long ok = taskq.jobs().enqueue(job("ok", "default"));
      long boom = taskq.jobs().enqueue(job("boom", "default"));
      // The ok job was runnable for at least this long before any worker existed.
      Thread.sleep(300);
      taskq.start();
      await().atMost(PATIENCE).until(() -> db.status(ok).equals("succeeded"));
      await().atMost(PATIENCE).until(() -> db.status(boom).equals("failed"));
      await().atMost(PATIENCE).until(() -> recorder.signals.size() >= 6);

      assertThat(recorder.signals)
          .containsSubsequence("started ok/default", "succeeded ok/default")
          .containsSubsequence("started boom/default", "failed boom/default");
      // From the job's run_at to its claim's started_at, both database times.
      Map<String, Object> row = db.job(ok);
      Duration expected =
          Duration.between(
              (java.time.Instant) row.get("run_at"), (java.time.Instant) row.get("started_at"));
      assertThat(recorder.pickups.get("ok")).isEqualTo(expected);
      assertThat(recorder.pickups.get("ok")).isGreaterThanOrEqualTo(Duration.ofMillis(300));
    }
  }

  @Test
  void aListenerThatThrows_failsNeitherAnEnqueueNorAJobNorAFeedPoll(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    Throwing throwing = new Throwing();
    try (TaskQ taskq = taskq(db, services.dataSource(), throwing)) {
      taskq.register(Actor.rawJson("ok", (json, ctx) -> null));
      long id = taskq.jobs().enqueue(job("ok", "default"));
      try (Connection c = services.dataSource().getConnection()) {
        c.setAutoCommit(false);
        taskq.jobs().enqueue(c, job("ok", "default"));
        c.commit();
      }
      taskq.start();

      await().atMost(PATIENCE).until(() -> db.status(id).equals("succeeded"));
      assertThat(taskq.reclaimEvents().pollReclaimEvents(FeedCursor.beginning(), 10).events())
          .isEmpty();
      await().atMost(PATIENCE).until(() -> db.count("jobs WHERE status = 'succeeded'") == 2);
      // two enqueues, two starts, two successes, one poll: every one threw and was dropped
      await().atMost(PATIENCE).until(() -> throwing.calls.get() >= 7);
    }
  }

  @Test
  @Tag("E1")
  void feedPolls_reportTheAgeOfTheNewestEventDelivered_andZeroWhenCaughtUp(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    Recorder recorder = new Recorder();
    FeedFixture f = new FeedFixture(services.dataSource(), services.schema());
    f.reset();
    try (TaskQ taskq = taskq(db, services.dataSource(), recorder)) {
      f.commit(3);
      f.awaitHorizon();
      Thread.sleep(2_100); // past the default 2 s visibility delay, so the events are deliverable

      ReclaimEventPage page = taskq.reclaimEvents().pollReclaimEvents(FeedCursor.beginning(), 10);
      assertThat(page.events()).hasSize(3);
      assertThat(recorder.feedLags).hasSize(1);
      assertThat(recorder.feedLags.get(0)).isGreaterThanOrEqualTo(Duration.ofSeconds(2));

      taskq.reclaimEvents().pollReclaimEvents(page.cursor(), 10);
      assertThat(recorder.feedLags).hasSize(2);
      assertThat(recorder.feedLags.get(1)).isZero();
    }
  }
}
