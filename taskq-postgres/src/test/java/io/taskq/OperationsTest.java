package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.taskq.operations.BoundedCount;
import io.taskq.operations.JobCounts;
import io.taskq.operations.JobDetail;
import io.taskq.operations.JobFilter;
import io.taskq.operations.JobPage;
import io.taskq.operations.JobSummary;
import io.taskq.operations.Operations;
import io.taskq.operations.PauseTarget;
import io.taskq.operations.RetryResult;
import io.taskq.operations.RetryWhereListener;
import io.taskq.operations.RetryWhereResult;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The operations API (A1-A4) through the TaskQ root, against real PostgreSQL: a producer-only TaskQ
 * (no actor registered, never started) searches, counts, reads details, retries and pauses.
 */
@TaskQTest
class OperationsTest {
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

  /** Inserts {@code n} jobs in one statement, with the given status, actor, queue and error. */
  private static void insert(
      TestDb db, int n, String status, String actor, String queue, String label, String error)
      throws SQLException {
    db.rows(
        db.sql(
            "INSERT INTO {schema}.jobs (actor, queue, status, payload, labels, run_at, attempt,"
                + " max_attempts, retry_backoff, retry_base_ms, retry_cap_ms, retry_jitter,"
                + " error_class, error_message, finished_at)"
                + " SELECT ?, ?, ?, '{}', jsonb_build_object('tenant', ?::text), clock_timestamp(),"
                + " CASE WHEN ? IN ('pending', 'scheduled') THEN 0 ELSE 1 END, 1, 'constant', 10,"
                + " 10, 0, NULLIF(?, ''), NULLIF(?, ''),"
                + " CASE WHEN ? IN ('failed', 'crashed', 'cancelled', 'succeeded')"
                + " THEN clock_timestamp() - interval '1 second' END"
                + " FROM generate_series(1, ?) RETURNING id"),
        actor,
        queue,
        status,
        label,
        status,
        error,
        error.isEmpty() ? "" : "boom",
        status,
        n);
  }

  @Test
  @Tag("A1")
  void search_filtersByStatusActorQueueLabelAndErrorClass(TestServices services) throws Exception {
    TestDb db = TestDb.of(services);
    insert(db, 5, "failed", "mail", "emails", "acme", "java.io.IOException");
    insert(db, 3, "failed", "mail", "emails", "globex", "java.lang.IllegalStateException");
    insert(db, 4, "pending", "report", "reports", "acme", "");
    insert(db, 2, "succeeded", "report", "reports", "acme", "");
    try (TaskQ taskq = db.taskq()) {
      Operations ops = taskq.operations();
      assertThat(ids(ops, JobFilter.all())).hasSize(14);
      assertThat(ids(ops, JobFilter.builder().statuses(JobStatus.FAILED).build())).hasSize(8);
      assertThat(
              ids(ops, JobFilter.builder().statuses(JobStatus.FAILED, JobStatus.PENDING).build()))
          .hasSize(12);
      assertThat(ids(ops, JobFilter.builder().actors("report").build())).hasSize(6);
      assertThat(ids(ops, JobFilter.builder().queues("emails").label("tenant", "acme").build()))
          .hasSize(5);
      assertThat(ids(ops, JobFilter.builder().errorClasses("java.io.IOException").build()))
          .hasSize(5);
      assertThat(ids(ops, JobFilter.builder().label("tenant", "nobody").build())).isEmpty();
      Instant now = Instant.now();
      assertThat(
              ids(
                  ops,
                  JobFilter.builder()
                      .finishedBetween(now.minus(Duration.ofHours(1)), null)
                      .build()))
          .hasSize(10);
      assertThat(ids(ops, JobFilter.builder().createdBetween(null, now.minusSeconds(3600)).build()))
          .isEmpty();
      JobSummary first =
          ops.search(JobFilter.builder().statuses(JobStatus.FAILED).build(), 1).jobs().get(0);
      assertThat(first.errorMessage()).isEqualTo("boom");
      assertThat(first.labels()).containsEntry("tenant", "globex");
    }
  }

  private static List<Long> ids(Operations ops, JobFilter filter) {
    return ops.search(filter, 1000).jobs().stream().map(JobSummary::id).toList();
  }

  @Test
  @Tag("A1")
  void keysetPaging_isStableUnderConcurrentInserts(TestServices services) throws Exception {
    TestDb db = TestDb.of(services);
    insert(db, 25, "failed", "mail", "emails", "acme", "E");
    try (TaskQ taskq = db.taskq()) {
      Operations ops = taskq.operations();
      JobFilter failed = JobFilter.builder().statuses(JobStatus.FAILED).build();
      JobPage page = ops.search(failed, 10);
      List<Long> seen = new ArrayList<>(page.jobs().stream().map(JobSummary::id).toList());
      while (page.hasMore()) {
        insert(db, 7, "failed", "mail", "emails", "acme", "E");
        page = ops.search(failed, 10, page.nextCursor().getAsLong());
        seen.addAll(page.jobs().stream().map(JobSummary::id).toList());
      }
      assertThat(seen)
          .hasSize(25)
          .doesNotHaveDuplicates()
          .isSortedAccordingTo((a, b) -> b.compareTo(a));
      assertThatThrownBy(() -> ops.search(failed, 0))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("pageSize");
    }
  }

  @Test
  @Tag("A1")
  void counts_perStatusQueueAndActor_andTheArchive(TestServices services) throws Exception {
    TestDb db = TestDb.of(services);
    insert(db, 5, "failed", "mail", "emails", "acme", "E");
    insert(db, 4, "pending", "report", "reports", "acme", "");
    insert(db, 2, "succeeded", "report", "emails", "acme", "");
    db.execute(
        db.sql(
            "WITH moved AS (DELETE FROM {schema}.jobs WHERE status = 'succeeded' RETURNING *)"
                + " INSERT INTO {schema}.jobs_archive SELECT *, clock_timestamp() FROM moved"));
    try (TaskQ taskq = db.taskq()) {
      JobCounts hot = taskq.operations().counts();
      assertThat(hot.of(JobStatus.FAILED)).isEqualTo(5);
      assertThat(hot.of(JobStatus.SUCCEEDED)).isZero();
      assertThat(hot.byQueue().get("reports")).containsEntry(JobStatus.PENDING, 4L);
      assertThat(hot.byActor().get("mail")).containsEntry(JobStatus.FAILED, 5L);
      assertThat(hot.total()).isEqualTo(9);
      JobCounts all = taskq.operations().counts(true);
      assertThat(all.of(JobStatus.SUCCEEDED)).isEqualTo(2);
      assertThat(all.total()).isEqualTo(11);
      assertThat(
              ids(
                  taskq.operations(),
                  JobFilter.builder().statuses(JobStatus.SUCCEEDED).includeArchived().build()))
          .hasSize(2);
      assertThat(ids(taskq.operations(), JobFilter.builder().includeArchived().build()))
          .hasSize(11);
    }
  }

  @Test
  @Tag("A2")
  @Tag("A3")
  void failedJob_showsEveryAttempt_andAManualRetryKeepsItsAttemptsAndAddsOne(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    Set<Integer> attemptsSeen = new HashSet<>();
    long id;
    try (TaskQ producer = db.taskq()) {
      id =
          producer
              .jobs()
              .enqueue(JobRequest.builder("flaky").payloadJson("{}").maxAttempts(2).build());
    }
    try (TaskQ taskq = db.taskq()) {
      taskq.register(
          Actor.rawJson(
              "flaky",
              (json, ctx) -> {
                attemptsSeen.add(ctx.attempt());
                if (ctx.attempt() <= 2) {
                  throw new IllegalStateException("attempt " + ctx.attempt() + " fails");
                }
                return "{\"ok\": true}";
              }));
      taskq.start();
      await().atMost(Duration.ofSeconds(20)).until(() -> db.status(id).equals("failed"));
      Operations ops = taskq.operations();
      JobDetail detail = ops.detail(id).orElseThrow();
      assertThat(detail.job().status()).isEqualTo(JobStatus.FAILED);
      assertThat(detail.attempts()).extracting(a -> a.attempt()).containsExactly(1, 2);
      assertThat(detail.attempts()).extracting(a -> a.outcome()).containsOnly("failed");
      assertThat(detail.attempts().get(1).errorClass())
          .isEqualTo("java.lang.IllegalStateException");
      assertThat(detail.attempts().get(1).errorStack()).contains("attempt 2 fails");
      assertThat(detail.attempts().get(0).workerId()).isEqualTo(taskq.workerId());
      assertThat(detail.events()).extracting(e -> e.kind()).containsExactly("retried", "failed");

      RetryResult retried = ops.retry(id, null, "ops-alice");
      assertThat(retried.outcome()).isEqualTo(RetryResult.Outcome.RETRIED);
      assertThat(retried.maxAttempts()).isEqualTo(3);
      await().atMost(Duration.ofSeconds(20)).until(() -> db.status(id).equals("succeeded"));
      JobDetail after = ops.detail(id).orElseThrow();
      assertThat(after.job().attempt()).isEqualTo(3);
      assertThat(after.job().resultJson()).isEqualTo("{\"ok\": true}");
      assertThat(after.attempts())
          .extracting(a -> a.outcome())
          .containsExactly("failed", "failed", "succeeded");
      assertThat(after.events())
          .filteredOn(e -> e.kind().equals("manually_retried"))
          .singleElement()
          .satisfies(e -> assertThat(e.note()).isEqualTo("retried by ops-alice"));
      assertThat(attemptsSeen).containsExactlyInAnyOrder(1, 2, 3);
    }
  }

  @Test
  @Tag("A3")
  void retry_saysWhyWhenItDoesNothing_andSchedulesAtAGivenTime(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    insert(db, 1, "pending", "mail", "emails", "acme", "");
    insert(db, 1, "cancelled", "mail", "emails", "acme", "");
    long pending = db.queryLong(db.sql("SELECT min(id) FROM {schema}.jobs"));
    long cancelled = db.queryLong(db.sql("SELECT max(id) FROM {schema}.jobs"));
    try (TaskQ taskq = db.taskq()) {
      Operations ops = taskq.operations();
      assertThat(ops.retry(pending).outcome()).isEqualTo(RetryResult.Outcome.NOT_RETRYABLE);
      assertThat(ops.retry(pending).status()).isEqualTo(JobStatus.PENDING);
      assertThat(ops.retry(999_999_999L).outcome()).isEqualTo(RetryResult.Outcome.NOT_FOUND);
      assertThat(ops.detail(999_999_999L)).isEmpty();
      Instant later = Instant.now().plus(Duration.ofHours(1));
      RetryResult scheduled = ops.retry(cancelled, later, null);
      assertThat(scheduled.status()).isEqualTo(JobStatus.SCHEDULED);
      assertThat(db.job(cancelled)).containsEntry("status", "scheduled");
      assertThat(db.job(cancelled).get("finished_at")).isNull();
      assertThat(ops.retry(cancelled).outcome()).isEqualTo(RetryResult.Outcome.NOT_RETRYABLE);
    }
  }

  @Test
  @Tag("A3")
  void retryWhere_refusesAnEmptyFilter_andRetriesOnlyWhatMatches(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    insert(db, 30, "failed", "mail", "emails", "acme", "java.io.IOException");
    insert(db, 10, "failed", "mail", "emails", "acme", "Other");
    insert(db, 5, "crashed", "report", "reports", "acme", "");
    try (TaskQ taskq = db.taskq()) {
      Operations ops = taskq.operations();
      assertThatThrownBy(() -> ops.retryWhere(JobFilter.all()))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("empty retry filter");
      assertThatThrownBy(
              () ->
                  ops.retryWhere(
                      JobFilter.builder().statuses(JobStatus.PENDING).actors("mail").build()))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("failed, crashed or cancelled");
      RetryWhereResult io =
          ops.retryWhere(
              JobFilter.builder().errorClasses("java.io.IOException").build(),
              "ops-bob",
              RetryWhereListener.NONE);
      assertThat(io.retried()).isEqualTo(30);
      assertThat(db.count("jobs WHERE status = 'pending'")).isEqualTo(30);
      assertThat(
              db.count(
                  "job_events WHERE kind = 'manually_retried' AND note = ?",
                  "retried by ops-bob (bulk retry)"))
          .as("every job's event names the operator")
          .isEqualTo(30);
      RetryWhereResult rest = ops.retryWhere(JobFilter.everything().build());
      assertThat(rest.retried()).isEqualTo(15);
      assertThat(db.count("jobs WHERE status = 'pending'")).isEqualTo(45);
      assertThat(db.count("job_events WHERE kind = 'manually_retried' AND note = ?", "bulk retry"))
          .isEqualTo(15);
    }
  }

  @Test
  @Tag("A1")
  @Tag("W2")
  void count_isExactUpToItsBound_andSaysWhenMoreMatch(TestServices services) throws Exception {
    TestDb db = TestDb.of(services);
    insert(db, 30, "failed", "mail", "emails", "acme", "java.io.IOException");
    insert(db, 5, "failed", "report", "reports", "acme", "Other");
    insert(db, 7, "pending", "mail", "emails", "acme", "");
    try (TaskQ taskq = db.taskq()) {
      Operations ops = taskq.operations();
      JobFilter failed = JobFilter.builder().statuses(JobStatus.FAILED).build();
      assertThat(ops.count(failed, 100)).isEqualTo(new BoundedCount(35, false));
      assertThat(ops.count(failed, 35)).isEqualTo(new BoundedCount(35, false));
      assertThat(ops.count(failed, 34)).isEqualTo(new BoundedCount(34, true));
      assertThat(ops.count(failed, 34).text()).isEqualTo("more than 34");
      assertThat(ops.count(failed, 100).text()).isEqualTo("35");
      assertThat(
              ops.count(
                  JobFilter.builder()
                      .statuses(JobStatus.FAILED, JobStatus.PENDING)
                      .queues("emails")
                      .build(),
                  1000))
          .isEqualTo(new BoundedCount(37, false));
      assertThat(ops.count(JobFilter.builder().errorClasses("Other").build(), 1000).count())
          .isEqualTo(5);
      assertThat(ops.count(JobFilter.all(), 1000).count()).isEqualTo(42);
      assertThat(ops.actorFailuresSince(Instant.now().minusSeconds(3600)))
          .containsExactlyInAnyOrderEntriesOf(java.util.Map.of("mail", 30L, "report", 5L));
      assertThat(ops.actorFailuresSince(Instant.now().plusSeconds(60))).isEmpty();
      assertThatThrownBy(() -> ops.count(failed, 0))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("atMost");
    }
  }

  @Test
  @Tag("A4")
  void pause_isStoredOnce_listed_andResumed(TestServices services) throws Exception {
    TestDb db = TestDb.of(services);
    try (TaskQ taskq = db.taskq()) {
      Operations ops = taskq.operations();
      assertThat(ops.pause(PauseTarget.queue("emails"), "ops-alice", "SMTP down")).isTrue();
      assertThat(ops.pause(PauseTarget.queue("emails"), "ops-bob", "again")).isFalse();
      assertThat(ops.pause(PauseTarget.actor("report"), null, null)).isTrue();
      assertThat(ops.paused())
          .extracting(p -> p.target().toString() + "/" + p.pausedBy())
          .containsExactly("actor 'report'/null", "queue 'emails'/ops-alice");
      assertThat(ops.queues())
          .filteredOn(q -> q.name().equals("emails"))
          .singleElement()
          .satisfies(q -> assertThat(q.paused()).isTrue());
      assertThat(ops.actors())
          .filteredOn(a -> a.name().equals("report"))
          .singleElement()
          .satisfies(a -> assertThat(a.paused()).isTrue());
      assertThat(ops.resume(PauseTarget.queue("emails"))).isTrue();
      assertThat(ops.resume(PauseTarget.queue("emails"))).isFalse();
      assertThat(ops.paused()).hasSize(1);
      assertThatThrownBy(() -> PauseTarget.actor("*")).isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  @Tag("A4")
  void resume_namingTheOperator_logsWhoResumedAndThePauseItEnded(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    try (TaskQ taskq = db.taskq()) {
      Operations ops = taskq.operations();
      assertThat(ops.pause(PauseTarget.queue("invoices"), "ops-alice", "ledger locked")).isTrue();
      assertThat(ops.pause(PauseTarget.actor("reconcile"), "ops-alice", null)).isTrue();

      ByteArrayOutputStream captured = new ByteArrayOutputStream();
      PrintStream original = System.err;
      boolean resumed;
      boolean again;
      boolean actorResumed;
      try {
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        resumed = ops.resume(PauseTarget.queue("invoices"), " ops-bob ");
        again = ops.resume(PauseTarget.queue("invoices"), "ops-carol");
        actorResumed = ops.resume(PauseTarget.actor("reconcile"), "ops-dan");
      } finally {
        System.setErr(original);
      }

      assertThat(resumed).isTrue();
      assertThat(again).as("a second resume finds no pause").isFalse();
      assertThat(actorResumed).isTrue();
      assertThat(ops.paused()).as("the resumed pauses are gone").isEmpty();
      String schema = db.schema.quoted();
      assertThat(captured.toString(StandardCharsets.UTF_8))
          .contains(
              "queue 'invoices' in " + schema + " resumed by ops-bob (paused by ops-alice at ")
          .contains(": ledger locked)")
          .contains("queue 'invoices' in " + schema + " was not paused (resume by ops-carol)")
          .contains("actor 'reconcile' in " + schema + " resumed by ops-dan (paused by ops-alice");
    }
  }
}
