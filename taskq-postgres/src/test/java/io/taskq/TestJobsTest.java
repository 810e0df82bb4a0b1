package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskq.testing.EnqueuedJob;
import io.taskq.testing.JobMatcher;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestJobs;
import io.taskq.testing.TestServices;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The test kit's assertions and waits (P5), each shown passing and failing against jobs a real
 * TaskQ enqueued; a failure names what was there instead.
 */
@TaskQTest
@Tag("P5")
class TestJobsTest {
  @BeforeAll
  static void migrate(TestServices services) {
    TestDb.of(services).migrate();
  }

  @BeforeEach
  void clean(TestServices services) throws SQLException {
    TestDb.of(services).truncate();
  }

  private static JobRequest email(String to) {
    return JobRequest.builder("send-email")
        .queue("mail")
        .payloadJson("{\"to\":\"" + to + "\",\"template\":\"welcome\"}")
        .build();
  }

  @Test
  void assertEnqueued_matchesActorQueueAndPayloadAsJsonValues(TestServices services) {
    TestJobs jobs = TestJobs.of(services);
    try (TaskQ taskq = TestDb.of(services).taskq()) {
      long id = taskq.jobs().enqueue(email("ada@example.com"));
      List<EnqueuedJob> found =
          jobs.assertEnqueued(
              JobMatcher.actor("send-email")
                  .queue("mail")
                  .payloadEquals("{\"template\": \"welcome\", \"to\": \"ada@example.com\"}"),
              1);
      assertThat(found).extracting(EnqueuedJob::id).containsExactly(id);
      jobs.assertEnqueued(
          JobMatcher.actor("send-email").payloadContains("{\"to\":\"ada@example.com\"}"));
      jobs.assertEnqueued(
          JobMatcher.actor("send-email").payload("naming ada", json -> json.contains("ada")));
      jobs.assertEnqueued(JobMatcher.anyJob().status(JobStatus.PENDING), 1);
    }
  }

  @Test
  void assertEnqueued_failsWhenNoneMatches_listingTheJobsThatWere(TestServices services) {
    TestJobs jobs = TestJobs.of(services);
    try (TaskQ taskq = TestDb.of(services).taskq()) {
      long id = taskq.jobs().enqueue(email("ada@example.com"));
      assertThatThrownBy(
              () ->
                  jobs.assertEnqueued(
                      JobMatcher.actor("send-email")
                          .payloadContains("{\"to\": \"bob@example.com\"}")))
          .isInstanceOf(AssertionError.class)
          .hasMessage(
              "expected jobs of actor 'send-email' with payload containing {\"to\":"
                  + " \"bob@example.com\"} to be enqueued, found none; the jobs enqueued were: #"
                  + id
                  + " send-email@mail pending {\"to\": \"ada@example.com\", \"template\":"
                  + " \"welcome\"}");
      assertThatThrownBy(() -> jobs.assertEnqueued(JobMatcher.actor("send-email").queue("sms")))
          .isInstanceOf(AssertionError.class)
          .hasMessageStartingWith(
              "expected jobs of actor 'send-email' on queue 'sms' to be enqueued, found none");
      assertThatThrownBy(
              () ->
                  jobs.assertEnqueued(
                      JobMatcher.actor("send-email").payload("empty", String::isEmpty)))
          .isInstanceOf(AssertionError.class)
          .hasMessageContaining("with payload empty");
    }
  }

  @Test
  void assertEnqueuedWithACount_failsOnAnyOtherCount(TestServices services) {
    TestJobs jobs = TestJobs.of(services);
    try (TaskQ taskq = TestDb.of(services).taskq()) {
      taskq.jobs().enqueueAll(List.of(email("a@example.com"), email("b@example.com")));
      jobs.assertEnqueued(JobMatcher.actor("send-email"), 2);
      assertThatThrownBy(() -> jobs.assertEnqueued(JobMatcher.actor("send-email"), 1))
          .isInstanceOf(AssertionError.class)
          .hasMessageStartingWith(
              "expected 1 jobs of actor 'send-email' to be enqueued, found 2; the jobs enqueued"
                  + " were: #");
      assertThatThrownBy(() -> jobs.assertEnqueued(JobMatcher.actor("send-email"), 3))
          .isInstanceOf(AssertionError.class)
          .hasMessageContaining("found 2");
    }
  }

  @Test
  void assertNoneEnqueued_failsWhenOneMatches_namingIt(TestServices services) {
    TestJobs jobs = TestJobs.of(services);
    try (TaskQ taskq = TestDb.of(services).taskq()) {
      jobs.assertNoneEnqueued(JobMatcher.anyJob());
      long id = taskq.jobs().enqueue(email("ada@example.com"));
      jobs.assertNoneEnqueued(JobMatcher.actor("refund"));
      assertThatThrownBy(() -> jobs.assertNoneEnqueued(JobMatcher.actor("send-email")))
          .isInstanceOf(AssertionError.class)
          .hasMessageStartingWith(
              "expected no jobs of actor 'send-email' to be enqueued, found 1: #"
                  + id
                  + " send-email@mail pending");
    }
  }

  @Test
  void onlyNew_seesOnlyTheJobsEnqueuedAfterIt(TestServices services) {
    try (TaskQ taskq = TestDb.of(services).taskq()) {
      taskq.jobs().enqueue(email("old@example.com"));
      TestJobs jobs = TestJobs.of(services).onlyNew();
      jobs.assertNoneEnqueued(JobMatcher.actor("send-email"));
      taskq.jobs().enqueue(email("new@example.com"));
      assertThat(jobs.assertEnqueued(JobMatcher.actor("send-email"), 1))
          .extracting(EnqueuedJob::payloadJson)
          .containsExactly("{\"to\": \"new@example.com\", \"template\": \"welcome\"}");
      assertThatThrownBy(() -> jobs.assertEnqueued(JobMatcher.actor("refund")))
          .hasMessageContaining("the jobs enqueued since onlyNew() were: #");
    }
  }

  @Test
  void awaitTerminal_returnsTheJobOnceAWorkerEndedIt(TestServices services) throws Exception {
    TestDb db = TestDb.of(services);
    try (TaskQ taskq = db.taskq()) {
      taskq.register(
          Actor.builder("send-email", PayloadCodec.rawJson(), (json, ctx) -> "\"sent\"")
              .queue("mail")
              .build());
      taskq.start();
      long id = taskq.jobs().enqueue(email("ada@example.com"));
      EnqueuedJob done = TestJobs.of(services).awaitTerminal(id, Duration.ofSeconds(20));
      assertThat(done.status()).isEqualTo(JobStatus.SUCCEEDED);
      assertThat(done.resultJson()).isEqualTo("\"sent\"");
      assertThat(done.attempt()).isEqualTo(1);
    }
  }

  @Test
  void awaitTerminal_failsWhenNothingRunsTheJob_askingWhetherAWorkerRunsItsActor(
      TestServices services) {
    try (TaskQ taskq = TestDb.of(services).taskq()) {
      long id = taskq.jobs().enqueue(email("ada@example.com"));
      assertThatThrownBy(() -> TestJobs.of(services).awaitTerminal(id, Duration.ofMillis(300)))
          .isInstanceOf(AssertionError.class)
          .hasMessageStartingWith("job #" + id + " send-email@mail pending")
          .hasMessageContaining("had not ended after PT0.3S (attempt 0)")
          .hasMessageEndingWith("is a worker running actor 'send-email' on queue 'mail'?");
      assertThatThrownBy(() -> TestJobs.of(services).awaitTerminal(id + 1000, Duration.ZERO))
          .isInstanceOf(AssertionError.class)
          .hasMessageStartingWith("there is no job " + (id + 1000) + " in schema ");
    }
  }
}
