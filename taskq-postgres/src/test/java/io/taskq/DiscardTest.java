package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.taskq.RetryPolicy.Backoff;
import io.taskq.bulk.BatchInfo;
import io.taskq.bulk.BatchRequest;
import io.taskq.bulk.CancelResult;
import io.taskq.bulk.EnqueuedBatch;
import io.taskq.operations.DiscardResult;
import io.taskq.operations.DiscardResult.Outcome;
import io.taskq.operations.EventRecord;
import io.taskq.operations.Operations;
import io.taskq.operations.RetryResult;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * An operator's discard ({@link Operations#discard}) against real PostgreSQL: a job that has not
 * started ends failed for good with its reason recorded; a running, ended, archived or unknown job
 * is refused with a sentence that says why and what to do instead.
 */
@TaskQTest
@Tag("A3")
@Tag("W2")
class DiscardTest {
  @BeforeAll
  static void migrate(TestServices services) {
    TestDb.of(services).migrate();
  }

  @BeforeEach
  void clean(TestServices services) throws SQLException {
    TestDb db = TestDb.of(services);
    db.truncate();
    db.execute(db.sql("TRUNCATE {schema}.paused, {schema}.jobs_archive"));
  }

  @Test
  void pendingAndScheduledJobs_endFailedForGood_withTheReasonAsTheEventNote(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    try (TaskQ taskq = db.taskq()) {
      long pending = taskq.jobs().enqueue(JobRequest.builder("mail").payloadJson("{}").build());
      long scheduled =
          taskq
              .jobs()
              .enqueue(
                  JobRequest.builder("mail").payloadJson("{}").delay(Duration.ofHours(1)).build());
      assertThat(db.status(scheduled)).isEqualTo("scheduled");
      Operations ops = taskq.operations();

      DiscardResult r = ops.discard(pending, "customer asked to stop", "ops-alice");
      assertThat(r.outcome()).isEqualTo(Outcome.DISCARDED);
      assertThat(r.discarded()).isTrue();
      assertThat(r.status()).isEqualTo(JobStatus.FAILED);
      assertThat(r.finishedAt()).isNotNull();
      assertThat(r.message()).contains("job " + pending + " discarded");
      assertThat(db.job(pending))
          .containsEntry("status", "failed")
          .containsEntry("error_class", Operations.DISCARDED)
          .containsEntry("error_message", "discarded by ops-alice: customer asked to stop")
          .containsEntry("attempt", 0);
      assertThat(db.job(pending).get("finished_at")).isNotNull();
      assertThat(db.attempts(pending)).isEmpty();
      List<EventRecord> events = ops.detail(pending).orElseThrow().events();
      assertThat(events)
          .singleElement()
          .satisfies(
              e -> {
                assertThat(e.kind()).isEqualTo("discarded");
                assertThat(e.note()).isEqualTo("customer asked to stop");
                assertThat(e.disposition()).isEqualTo("failed");
                assertThat(e.errorClass()).isEqualTo(Operations.DISCARDED);
              });

      assertThat(ops.discard(scheduled, "  duplicate order  ", null).outcome())
          .isEqualTo(Outcome.DISCARDED);
      assertThat(db.job(scheduled))
          .containsEntry("status", "failed")
          .containsEntry("error_message", "discarded by an operator: duplicate order");
      assertThat(db.events(scheduled))
          .singleElement()
          .satisfies(e -> assertThat(e.get("note")).isEqualTo("duplicate order"));

      // A discarded job is failed like any other: a retry brings it back.
      RetryResult retried = ops.retry(pending, null, "ops-alice");
      assertThat(retried.outcome()).isEqualTo(RetryResult.Outcome.RETRIED);
      assertThat(db.status(pending)).isEqualTo("pending");
    }
  }

  @Test
  void aJobWaitingForItsNextAttempt_isDiscarded_andNeverRunsAgain(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    RetryPolicy hourly =
        RetryPolicy.of(Backoff.CONSTANT, Duration.ofHours(1), Duration.ofHours(1), 0, 5);
    long id = db.enqueueOne("flaky", hourly);
    List<Integer> attempts = new ArrayList<>();
    try (TaskQ taskq = db.taskq(db.config())) {
      taskq.register(
          Actor.rawJson(
              "flaky",
              (json, ctx) -> {
                synchronized (attempts) {
                  attempts.add(ctx.attempt());
                }
                throw new IllegalStateException("upstream down");
              }));
      taskq.start();
      await().atMost(Duration.ofSeconds(15)).until(() -> db.attempts(id).size() == 1);
      assertThat(db.job(id)).containsEntry("status", "pending").containsEntry("attempt", 1);
      assertThat((Instant) db.job(id).get("run_at")).isAfter(Instant.now().plusSeconds(3000));

      DiscardResult r = taskq.operations().discard(id, "upstream retired", "ops-bob");
      assertThat(r.outcome()).isEqualTo(Outcome.DISCARDED);
      db.execute(db.sql("UPDATE {schema}.jobs SET run_at = clock_timestamp() WHERE id = " + id));
      db.notifyWake();
      Thread.sleep(1000);
    }
    assertThat(db.job(id))
        .containsEntry("status", "failed")
        .containsEntry("attempt", 1)
        .containsEntry("error_class", Operations.DISCARDED);
    assertThat(db.attempts(id)).extracting(a -> a.get("outcome")).containsExactly("failed");
    assertThat(db.events(id))
        .extracting(e -> e.get("kind"))
        .containsExactly("retried", "discarded");
    synchronized (attempts) {
      assertThat(attempts).containsExactly(1);
    }
  }

  @Test
  void aRunningJob_isRefused_pointingAtCancel(TestServices services) throws Exception {
    TestDb db = TestDb.of(services);
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    try (TaskQ taskq = db.taskq(db.config())) {
      taskq.register(
          Actor.rawJson(
              "slow",
              (json, ctx) -> {
                started.countDown();
                release.await(20, TimeUnit.SECONDS);
                return null;
              }));
      taskq.start();
      long id = taskq.jobs().enqueue(JobRequest.builder("slow").payloadJson("{}").build());
      assertThat(started.await(15, TimeUnit.SECONDS)).isTrue();
      DiscardResult r = taskq.operations().discard(id, "stop it", "ops-alice");
      assertThat(r.outcome()).isEqualTo(Outcome.RUNNING);
      assertThat(r.status()).isEqualTo(JobStatus.RUNNING);
      assertThat(r.message()).contains("is running").contains("cancel it instead");
      assertThat(db.status(id)).isEqualTo("running");
      assertThat(db.events(id)).isEmpty();
      release.countDown();
      await().atMost(Duration.ofSeconds(15)).until(() -> db.status(id).equals("succeeded"));
    }
  }

  @Test
  void endedArchivedAndUnknownJobs_areRefused_namingTheirStatus(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    try (TaskQ taskq = db.taskq()) {
      Operations ops = taskq.operations();
      long done = taskq.jobs().enqueue(JobRequest.builder("mail").payloadJson("{}").build());
      long gone = taskq.jobs().enqueue(JobRequest.builder("mail").payloadJson("{}").build());
      assertThat(taskq.jobs().cancel(done)).isEqualTo(CancelResult.CANCELLED);
      db.execute(
          db.sql(
              "UPDATE {schema}.jobs SET status = 'succeeded', finished_at = clock_timestamp()"
                  + " WHERE id = "
                  + gone));
      db.execute(
          db.sql(
              "INSERT INTO {schema}.jobs_archive SELECT j.*, clock_timestamp() FROM {schema}.jobs j"
                  + " WHERE id = "
                  + gone
                  + "; DELETE FROM {schema}.jobs WHERE id = "
                  + gone));

      DiscardResult ended = ops.discard(done, "too late", "ops-alice");
      assertThat(ended.outcome()).isEqualTo(Outcome.FINISHED);
      assertThat(ended.status()).isEqualTo(JobStatus.CANCELLED);
      assertThat(ended.message()).contains("already ended (cancelled)");
      assertThat(db.status(done)).isEqualTo("cancelled");

      DiscardResult archived = ops.discard(gone, "too late", null);
      assertThat(archived.outcome()).isEqualTo(Outcome.ARCHIVED);
      assertThat(archived.message()).contains("archived (succeeded)");

      DiscardResult unknown = ops.discard(987_654_321L, "typo", null);
      assertThat(unknown.outcome()).isEqualTo(Outcome.NOT_FOUND);
      assertThat(unknown.status()).isNull();
      assertThat(unknown.message()).isEqualTo("no job 987654321");

      assertThatThrownBy(() -> ops.discard(done, " ", null))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("needs a reason");
      assertThatThrownBy(() -> ops.discard(done, "x".repeat(1001), null))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("at most 1000");
      assertThat(db.count("job_events WHERE kind = 'discarded'")).isZero();
    }
  }

  @Test
  @Tag("L9")
  void aDiscardedBatchMember_countsTowardsItsBatchAsFailed(TestServices services) throws Exception {
    TestDb db = TestDb.of(services);
    try (TaskQ taskq = db.taskq()) {
      EnqueuedBatch batch =
          taskq
              .jobs()
              .enqueueBatch(
                  BatchRequest.of(
                      List.of(
                          JobRequest.builder("member").payloadJson("{}").build(),
                          JobRequest.builder("member").payloadJson("{}").build())));
      long first = batch.jobIds().get(0);
      long second = batch.jobIds().get(1);
      assertThat(taskq.operations().discard(first, "bad input", null).discarded()).isTrue();
      BatchInfo half = taskq.jobs().findBatch(batch.batchId()).orElseThrow();
      assertThat(half.failed()).isEqualTo(1);
      assertThat(half.completed()).isFalse();
      assertThat(taskq.operations().discard(second, "bad input", null).discarded()).isTrue();
      BatchInfo all = taskq.jobs().findBatch(batch.batchId()).orElseThrow();
      assertThat(all.failed()).isEqualTo(2);
      assertThat(all.completed()).isTrue();
    }
  }
}
