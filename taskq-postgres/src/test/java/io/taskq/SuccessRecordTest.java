package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.taskq.operations.AttemptRecord;
import io.taskq.operations.JobDetail;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.SQLException;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * X2: a success is recorded on its job row, without a {@code job_attempts} row, and the job's
 * detail (A2) still shows it as an attempt, with the worker that ran it, as long as that worker's
 * row exists (as for any attempt row).
 */
@TaskQTest
@Tag("X2")
@Tag("A2")
class SuccessRecordTest {
  @BeforeAll
  static void migrate(TestServices services) {
    TestDb.of(services).migrate();
  }

  @BeforeEach
  void clean(TestServices services) throws SQLException {
    TestDb.of(services).truncate();
  }

  @Test
  void firstTrySuccess_costsNoAttemptRow_andTheJobDetailShowsItsAttempt(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    long id;
    String workerId;
    try (TaskQ taskq = db.taskq()) {
      taskq.register(Actor.rawJson("greeter", (json, ctx) -> "{\"hello\": \"world\"}"));
      id = taskq.jobs().enqueue(JobRequest.of("greeter", "{}"));
      taskq.start();
      workerId = taskq.workerId();
      await().atMost(Duration.ofSeconds(20)).until(() -> db.status(id).equals("succeeded"));

      assertThat(db.count("job_attempts")).isZero();
      JobDetail detail = taskq.operations().detail(id).orElseThrow();
      assertThat(detail.job().resultJson()).isEqualTo("{\"hello\": \"world\"}");
      assertThat(detail.job().lockedBy()).as("no lease is held any more").isNull();
      assertThat(detail.attempts()).hasSize(1);
      AttemptRecord attempt = detail.attempts().get(0);
      assertThat(attempt.attempt()).isEqualTo(1);
      assertThat(attempt.outcome()).isEqualTo("succeeded");
      assertThat(attempt.workerId()).isEqualTo(workerId);
      assertThat(attempt.errorClass()).isNull();
      assertThat(attempt.startedAt()).isEqualTo(detail.job().startedAt());
      assertThat(attempt.finishedAt()).isEqualTo(detail.job().finishedAt());
      assertThat(taskq.jobs().find(id).orElseThrow().lockedBy()).isNull();
    }
    // The closed worker's row is gone: its attempts, this one included, no longer name it.
    try (TaskQ producer = db.taskq()) {
      JobDetail detail = producer.operations().detail(id).orElseThrow();
      assertThat(detail.attempts())
          .singleElement()
          .satisfies(
              a -> {
                assertThat(a.outcome()).isEqualTo("succeeded");
                assertThat(a.workerId()).isNull();
              });
    }
  }

  @Test
  void successAfterAFailure_showsTheFailedAttemptRowThenTheSuccess(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    try (TaskQ taskq = db.taskq()) {
      taskq.register(
          Actor.rawJson(
              "flaky",
              (json, ctx) -> {
                if (ctx.attempt() == 1) {
                  throw new IllegalStateException("first attempt fails");
                }
                return null;
              }));
      long id =
          taskq
              .jobs()
              .enqueue(
                  JobRequest.builder("flaky")
                      .payloadJson("{}")
                      .retryPolicy(
                          RetryPolicy.of(
                              RetryPolicy.Backoff.CONSTANT,
                              Duration.ofMillis(10),
                              Duration.ofMillis(10),
                              0,
                              3))
                      .build());
      taskq.start();
      await().atMost(Duration.ofSeconds(20)).until(() -> db.status(id).equals("succeeded"));

      assertThat(db.count("job_attempts")).isEqualTo(1);
      JobDetail detail = taskq.operations().detail(id).orElseThrow();
      assertThat(detail.attempts()).extracting(AttemptRecord::attempt).containsExactly(1, 2);
      assertThat(detail.attempts())
          .extracting(AttemptRecord::outcome)
          .containsExactly("failed", "succeeded");
      assertThat(detail.attempts().get(0).errorClass())
          .isEqualTo("java.lang.IllegalStateException");
      assertThat(detail.attempts().get(1).workerId()).isEqualTo(taskq.workerId());
    }
  }
}
