package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.RetryPolicy.Backoff;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Handler middleware (P6): the written contract of {@link JobInterceptor}, pinned through the real
 * attempt path (inline mode runs the worker's JobRun in the test's thread; one test uses a worker).
 */
@TaskQTest
@Tag("P6")
class JobInterceptorTest {
  private static final RetryPolicy TWO_ATTEMPTS =
      RetryPolicy.of(Backoff.CONSTANT, Duration.ofMinutes(1), Duration.ofMinutes(1), 0, 2);

  private final List<String> trail = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void migrate(TestServices services) {
    TestDb.of(services).migrate();
  }

  @BeforeEach
  void clean(TestServices services) throws SQLException {
    TestDb.of(services).truncate();
  }

  private JobInterceptor around(String name) {
    return execution -> {
      trail.add(name + ">");
      try {
        return execution.proceed();
      } finally {
        trail.add("<" + name);
      }
    };
  }

  private static TaskQ.Builder inline(TestDb db) {
    return TaskQ.builder(db.dataSource).config(db.config().build()).migrate(false).inline();
  }

  private Actor.Builder<String> actor(String name, io.taskq.JobHandler<String> handler) {
    return Actor.builder(name, PayloadCodec.rawJson(), handler).retryPolicy(TWO_ATTEMPTS);
  }

  private JobInfo run(TaskQ taskq, String actor) throws Exception {
    taskq.start();
    long id = taskq.jobs().enqueue(JobRequest.of(actor, "{\"n\": 1}"));
    return taskq.jobs().find(id).orElseThrow();
  }

  @Test
  void taskqInterceptorsRunOutermostInRegistrationOrder_thenTheActors_thenTheHandler(
      TestServices services) throws Exception {
    try (TaskQ taskq =
        inline(TestDb.of(services)).intercept(around("A")).intercept(around("B")).build()) {
      taskq.register(
          actor(
                  "ordered",
                  (json, ctx) -> {
                    trail.add("handler " + json);
                    return null;
                  })
              .intercept(around("C"))
              .build());
      assertThat(run(taskq, "ordered").status()).isEqualTo(JobStatus.SUCCEEDED);
    }
    assertThat(trail).containsExactly("A>", "B>", "C>", "handler {\"n\": 1}", "<C", "<B", "<A");
  }

  @Test
  void anInterceptorSeesTheContextAndPayload_andWhatItReturnsIsStored(TestServices services)
      throws Exception {
    JobInterceptor wrapping =
        execution ->
            "{\"wrapped\": "
                + execution.proceed()
                + ", \"attempt\": "
                + execution.context().attempt()
                + ", \"payload\": "
                + execution.payloadJson()
                + "}";
    try (TaskQ taskq = inline(TestDb.of(services)).intercept(wrapping).build()) {
      taskq.register(actor("answer", (json, ctx) -> "42").build());
      assertThat(run(taskq, "answer").resultJson())
          .isEqualTo("{\"attempt\": 1, \"payload\": {\"n\": 1}, \"wrapped\": 42}");
    }
  }

  @Test
  void anExceptionFromAnInterceptor_failsTheAttemptAndRetriesLikeAHandlers(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    JobInterceptor refusing =
        execution -> {
          throw new IllegalStateException("breaker open");
        };
    try (TaskQ taskq = inline(db).intercept(refusing).build()) {
      taskq.register(actor("guarded", (json, ctx) -> trail.add("handler")).build());
      JobInfo job = run(taskq, "guarded");
      assertThat(job.status()).isEqualTo(JobStatus.FAILED);
      assertThat(job.errorClass()).isEqualTo("java.lang.IllegalStateException");
      assertThat(db.attempts(job.id()))
          .extracting(a -> a.get("outcome"))
          .containsExactly("failed", "failed");
    }
    assertThat(trail).isEmpty();
  }

  @Test
  void aNonRetryableExceptionFromAnInterceptor_failsTheJobForGood(TestServices services)
      throws Exception {
    JobInterceptor refusing =
        execution -> {
          throw new NonRetryableException("tenant deleted");
        };
    try (TaskQ taskq = inline(TestDb.of(services)).build()) {
      taskq.register(actor("tenanted", (json, ctx) -> null).intercept(refusing).build());
      JobInfo job = run(taskq, "tenanted");
      assertThat(job.status()).isEqualTo(JobStatus.FAILED);
      assertThat(job.attempt()).isEqualTo(1);
    }
  }

  @Test
  void swallowingTheHandlersException_makesTheAttemptASuccess(TestServices services)
      throws Exception {
    JobInterceptor forgiving =
        execution -> {
          try {
            return execution.proceed();
          } catch (IllegalArgumentException e) {
            return "\"forgiven: " + e.getMessage() + "\"";
          }
        };
    try (TaskQ taskq = inline(TestDb.of(services)).intercept(forgiving).build()) {
      taskq.register(
          actor(
                  "throwing",
                  (json, ctx) -> {
                    throw new IllegalArgumentException("bad");
                  })
              .build());
      JobInfo job = run(taskq, "throwing");
      assertThat(job.status()).isEqualTo(JobStatus.SUCCEEDED);
      assertThat(job.resultJson()).isEqualTo("\"forgiven: bad\"");
    }
  }

  @Test
  void notProceeding_skipsTheHandler_andProceedingTwiceFailsTheAttempt(TestServices services)
      throws Exception {
    JobInterceptor skipping = execution -> "\"skipped\"";
    JobInterceptor twice =
        execution -> {
          execution.proceed();
          return execution.proceed();
        };
    try (TaskQ taskq = inline(TestDb.of(services)).build()) {
      taskq.register(
          actor("skipped", (json, ctx) -> trail.add("skipped ran")).intercept(skipping).build());
      taskq.register(
          actor("twice", (json, ctx) -> trail.add("twice ran")).intercept(twice).build());
      taskq.start();
      long skipped = taskq.jobs().enqueue(JobRequest.of("skipped", "{}"));
      long doubled = taskq.jobs().enqueue(JobRequest.of("twice", "{}"));
      assertThat(taskq.jobs().find(skipped).orElseThrow().resultJson()).isEqualTo("\"skipped\"");
      JobInfo job = taskq.jobs().find(doubled).orElseThrow();
      assertThat(job.status()).isEqualTo(JobStatus.FAILED);
      assertThat(job.errorClass()).isEqualTo("java.lang.IllegalStateException");
      assertThat(job.errorMessage()).contains("of actor 'twice' called proceed() twice");
    }
    assertThat(trail).containsExactly("twice ran", "twice ran");
  }

  @Test
  void aWorkerRunsTheChainOnItsHandlerThread(TestServices services) throws Exception {
    TestDb db = TestDb.of(services);
    JobInterceptor threadName =
        execution -> {
          trail.add(Thread.currentThread().getName());
          return execution.proceed();
        };
    try (TaskQ taskq = db.taskq(db.config())) {
      taskq.register(
          actor("threaded", (json, ctx) -> Thread.currentThread().getName().length())
              .intercept(threadName)
              .build());
      taskq.start();
      long id = taskq.jobs().enqueue(JobRequest.of("threaded", "{}"));
      org.awaitility.Awaitility.await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> db.status(id).equals("succeeded"));
    }
    assertThat(trail).hasSize(1).doesNotContain(Thread.currentThread().getName());
  }
}
