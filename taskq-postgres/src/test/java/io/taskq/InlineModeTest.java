package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskq.RetryPolicy.Backoff;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Inline mode and drain (P5): jobs run in the caller's thread through the worker's claim, handler
 * and completion statement, so attempts, errors and retries are recorded as a worker records them.
 */
@TaskQTest
@Tag("P5")
class InlineModeTest {
  private static final RetryPolicy THREE_ATTEMPTS =
      RetryPolicy.of(Backoff.CONSTANT, Duration.ofMinutes(10), Duration.ofMinutes(10), 0, 3);

  private final List<String> threads = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void migrate(TestServices services) {
    TestDb.of(services).migrate();
  }

  @BeforeEach
  void clean(TestServices services) throws SQLException {
    TestDb.of(services).truncate();
  }

  private static TaskQ inline(TestDb db) {
    return TaskQ.builder(db.dataSource).config(db.config().build()).migrate(false).inline().build();
  }

  private Actor<String> recording(String name) {
    return Actor.rawJson(
        name,
        (json, ctx) -> {
          threads.add(Thread.currentThread().getName() + " " + json);
          return "\"done\"";
        });
  }

  private static Actor<String> failingUntil(String name, int succeedOnAttempt) {
    return Actor.builder(
            name,
            io.taskq.PayloadCodec.rawJson(),
            (json, ctx) -> {
              if (ctx.attempt() < succeedOnAttempt) {
                throw new IllegalStateException("attempt " + ctx.attempt() + " fails");
              }
              return null;
            })
        .retryPolicy(THREE_ATTEMPTS)
        .build();
  }

  @Test
  void enqueue_runsTheHandlerInTheCallersThreadBeforeReturning(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    try (TaskQ taskq = inline(db)) {
      taskq.register(recording("greet"));
      taskq.start();
      long id = taskq.jobs().enqueue(JobRequest.of("greet", "{\"to\": \"ada\"}"));
      assertThat(threads).containsExactly(Thread.currentThread().getName() + " {\"to\": \"ada\"}");
      JobInfo job = taskq.jobs().find(id).orElseThrow();
      assertThat(job.status()).isEqualTo(JobStatus.SUCCEEDED);
      assertThat(job.resultJson()).isEqualTo("\"done\"");
      assertThat(db.attempts(id)).extracting(a -> a.get("outcome")).containsExactly("succeeded");
    }
  }

  @Test
  void aFailingHandler_isRetriedThroughItsStampedPolicyWithoutWaitingTheBackoff(
      TestServices services) throws Exception {
    TestDb db = TestDb.of(services);
    try (TaskQ taskq = inline(db)) {
      taskq.register(failingUntil("flaky", 3));
      taskq.register(failingUntil("doomed", Integer.MAX_VALUE));
      taskq.start();
      long flaky = taskq.jobs().enqueue(JobRequest.of("flaky", "{}"));
      long doomed = taskq.jobs().enqueue(JobRequest.of("doomed", "{}"));
      assertThat(db.attempts(flaky))
          .extracting(a -> a.get("outcome"))
          .containsExactly("failed", "failed", "succeeded");
      assertThat(db.status(flaky)).isEqualTo("succeeded");
      assertThat(db.attempts(doomed))
          .extracting(a -> a.get("outcome"))
          .containsExactly("failed", "failed", "failed");
      assertThat(db.events(doomed))
          .extracting(e -> e.get("kind"))
          .containsExactly("retried", "retried", "failed");
      assertThat(db.job(doomed).get("error_message")).isEqualTo("attempt 3 fails");
    }
  }

  @Test
  void insideTheCallersTransaction_theJobWaitsForTheCommitAndADrain(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    try (TaskQ taskq = inline(db)) {
      taskq.register(recording("greet"));
      taskq.start();
      long id;
      try (Connection c = db.dataSource.getConnection()) {
        c.setAutoCommit(false);
        id = taskq.jobs().enqueue(c, JobRequest.of("greet", "{}"));
        assertThat(threads).isEmpty();
        c.commit();
      }
      assertThat(db.status(id)).isEqualTo("pending");
      List<RanAttempt> ran = taskq.drain();
      assertThat(ran)
          .containsExactly(new RanAttempt(id, "greet", "default", 1, JobStatus.SUCCEEDED));
      assertThat(threads).hasSize(1);
    }
  }

  @Test
  void drain_runsDueJobsAndWhatTheyEnqueue_butNotScheduledOnesUnlessAsked(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    try (TaskQ taskq = TestDb.of(services).taskq()) {
      taskq.register(recording("later"));
      taskq.register(
          Actor.rawJson(
              "parent",
              (json, ctx) -> {
                taskq.jobs().enqueue(JobRequest.of("later", "{\"from\": \"parent\"}"));
                return null;
              }));
      long parent = taskq.jobs().enqueue(JobRequest.of("parent", "{}"));
      long scheduled =
          taskq.jobs().enqueue(JobRequest.builder("later").delay(Duration.ofHours(1)).build());
      List<RanAttempt> ran = taskq.drain();
      assertThat(ran).extracting(RanAttempt::actor).containsExactly("parent", "later");
      assertThat(ran.get(0).jobId()).isEqualTo(parent);
      assertThat(db.status(scheduled)).isEqualTo("scheduled");
      assertThat(taskq.drain()).isEmpty();

      assertThat(taskq.drainIncludingScheduled())
          .containsExactly(new RanAttempt(scheduled, "later", "default", 1, JobStatus.SUCCEEDED));
      assertThat(db.status(scheduled)).isEqualTo("succeeded");
    }
  }

  @Test
  void drain_leavesARetryWaitingOutItsBackoff_drainIncludingScheduledRunsItToTheEnd(
      TestServices services) throws Exception {
    TestDb db = TestDb.of(services);
    try (TaskQ taskq = db.taskq()) {
      taskq.register(failingUntil("flaky", 3));
      long id = taskq.jobs().enqueue(JobRequest.of("flaky", "{}"));
      assertThat(taskq.drain())
          .containsExactly(new RanAttempt(id, "flaky", "default", 1, JobStatus.PENDING));
      assertThat(taskq.drainIncludingScheduled())
          .extracting(RanAttempt::attempt, RanAttempt::status)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple(2, JobStatus.PENDING),
              org.assertj.core.groups.Tuple.tuple(3, JobStatus.SUCCEEDED));
    }
  }

  @Test
  void drain_leavesJobsOfActorsThisProcessDoesNotRun(TestServices services) throws Exception {
    TestDb db = TestDb.of(services);
    try (TaskQ taskq = db.taskq()) {
      taskq.register(recording("mine"));
      long theirs = taskq.jobs().enqueue(JobRequest.of("theirs", "{}"));
      assertThat(taskq.drain()).isEmpty();
      assertThat(db.status(theirs)).isEqualTo("pending");
    }
  }

  @Test
  void drainOnlyMode_runsNothingUntilADrain(TestServices services) throws Exception {
    TestDb db = TestDb.of(services);
    try (TaskQ taskq =
        TaskQ.builder(db.dataSource)
            .config(db.config().build())
            .migrate(false)
            .drainOnly()
            .build()) {
      taskq.register(recording("greet"));
      taskq.start();
      long id = taskq.jobs().enqueue(JobRequest.of("greet", "{}"));
      assertThat(threads).isEmpty();
      assertThat(db.status(id)).isEqualTo("pending");
      assertThat(db.count("workers")).isZero();
      assertThat(taskq.drain()).extracting(RanAttempt::jobId).containsExactly(id);
      assertThat(threads).hasSize(1);
    }
  }

  @Test
  void drain_withoutActors_saysSo(TestServices services) {
    try (TaskQ taskq = TestDb.of(services).taskq()) {
      assertThatThrownBy(taskq::drain)
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("register at least one actor");
    }
  }
}
