package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@TaskQTest
@Tag("L5")
@Tag("L1")
class ResultTest {
  private static final RetryPolicy ONCE = RetryPolicy.defaults().withMaxAttempts(1);

  @BeforeAll
  static void migrate(TestServices services) throws SQLException {
    TestDb.of(services).migrate();
  }

  @BeforeEach
  void clean(TestServices services) throws SQLException {
    TestDb.of(services).truncate();
  }

  @Test
  void success_storesTheResultUntilTheResultTtl(TestServices services) throws Exception {
    TestDb db = TestDb.of(services);
    long id = db.enqueueOne("answer", ONCE);
    try (TaskQ taskq = db.taskq(db.config().resultTtl(Duration.ofHours(2)))) {
      taskq.register(Actor.rawJson("answer", (json, ctx) -> "{\"answer\": 42}"));
      taskq.start();
      await().atMost(Duration.ofSeconds(10)).until(() -> db.status(id).equals("succeeded"));
    }
    Map<String, Object> job = db.job(id);
    assertThat(String.valueOf(job.get("result"))).isEqualTo("{\"answer\": 42}");
    Instant finished = (Instant) job.get("finished_at");
    Instant expires = (Instant) job.get("result_expires_at");
    assertThat(Duration.between(finished, expires))
        .isBetween(Duration.ofHours(2).minusSeconds(1), Duration.ofHours(2).plusSeconds(1));
    assertThat(job.get("lock_expires_at")).isNull();
    // X2: the row keeps the worker that ran the success (its attempt's record, V011).
    assertThat(job.get("locked_by")).isNotNull();
    assertThat(job.get("attempt")).isEqualTo(1);
    List<Map<String, Object>> attempts = db.attempts(id);
    assertThat(attempts)
        .singleElement()
        .satisfies(
            a -> {
              assertThat(a.get("outcome")).isEqualTo("succeeded");
              assertThat(a.get("attempt")).isEqualTo(1);
              assertThat(a.get("started_at")).isNotNull();
            });
  }

  @Test
  @Tag("R6")
  void find_neverReturnsAResultPastItsTtl_beforeTheSweepNullsIt(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    long id = db.enqueueOne("ttl", ONCE);
    try (TaskQ taskq = db.taskq(db.config().resultTtl(Duration.ofHours(1)))) {
      taskq.register(Actor.rawJson("ttl", (json, ctx) -> "{\"kept\": true}"));
      taskq.start();
      await().atMost(Duration.ofSeconds(10)).until(() -> db.status(id).equals("succeeded"));
      assertThat(taskq.jobs().find(id).orElseThrow().resultJson()).isEqualTo("{\"kept\": true}");

      // The TTL passes; no sweep has run yet, so the row still holds the result.
      db.execute(
          db.sql(
              "UPDATE {schema}.jobs SET result_expires_at = clock_timestamp() - interval '1 ms'"
                  + " WHERE id = "
                  + id));
      assertThat(db.job(id).get("result")).as("not swept yet").isNotNull();

      JobInfo expired = taskq.jobs().find(id).orElseThrow();
      assertThat(expired.resultJson()).as("a result past its TTL").isNull();
      assertThat(expired.resultExpiresAt()).isNotNull();
    }
  }

  @Test
  void zeroResultTtl_storesNoResult(TestServices services) throws Exception {
    TestDb db = TestDb.of(services);
    long id = db.enqueueOne("no-keep", ONCE);
    try (TaskQ taskq = db.taskq(db.config().resultTtl(Duration.ZERO))) {
      taskq.register(Actor.rawJson("no-keep", (json, ctx) -> "[1, 2, 3]"));
      taskq.start();
      await().atMost(Duration.ofSeconds(10)).until(() -> db.status(id).equals("succeeded"));
    }
    assertThat(db.job(id).get("result")).isNull();
    assertThat(db.job(id).get("result_expires_at")).isNull();
  }

  @Test
  void nullResult_storesNoResult(TestServices services) throws Exception {
    TestDb db = TestDb.of(services);
    long id = db.enqueueOne("void", ONCE);
    try (TaskQ taskq = db.taskq()) {
      taskq.register(Actor.rawJson("void", (json, ctx) -> null));
      taskq.start();
      await().atMost(Duration.ofSeconds(10)).until(() -> db.status(id).equals("succeeded"));
    }
    assertThat(db.job(id).get("result")).isNull();
    assertThat(db.job(id).get("result_expires_at")).isNull();
  }

  @Test
  void handlerReceivesPayloadAndContext(TestServices services) throws Exception {
    TestDb db = TestDb.of(services);
    long id = db.enqueueOne("echo", ONCE);
    try (TaskQ taskq = db.taskq()) {
      taskq.register(
          Actor.rawJson(
              "echo",
              (json, ctx) ->
                  "{\"payload\": "
                      + json
                      + ", \"id\": "
                      + ctx.jobId()
                      + ", \"attempt\": "
                      + ctx.attempt()
                      + ", \"max\": "
                      + ctx.maxAttempts()
                      + ", \"actor\": \""
                      + ctx.actor()
                      + "\", \"queue\": \""
                      + ctx.queue()
                      + "\", \"cancel\": "
                      + ctx.isCancelRequested()
                      + ", \"deadline\": "
                      + ctx.deadline().isPresent()
                      + "}"));
      taskq.start();
      await().atMost(Duration.ofSeconds(10)).until(() -> db.status(id).equals("succeeded"));
    }
    assertThat(String.valueOf(db.job(id).get("result")))
        .isEqualTo(
            "{\"id\": "
                + id
                + ", \"max\": 1, \"actor\": \"echo\", \"queue\": \"default\","
                + " \"cancel\": false, \"attempt\": 1, \"payload\": {\"n\": 1}, \"deadline\": false}");
  }

  @Test
  void resultTheDatabaseRefuses_failsTheAttemptAsInvalidResult(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    long id = db.enqueueOne("bad-json", ONCE);
    try (TaskQ taskq = db.taskq()) {
      taskq.register(Actor.rawJson("bad-json", (json, ctx) -> "this is not json"));
      taskq.start();
      await().atMost(Duration.ofSeconds(10)).until(() -> db.status(id).equals("failed"));
    }
    assertThat(db.job(id).get("error_class")).isEqualTo("InvalidResult");
    assertThat(String.valueOf(db.job(id).get("error_message")))
        .startsWith("the handler's result is not valid JSON: ");
  }

  @Test
  void resultRefusedOnlyByTheDatabase_failsItsJobAloneAndTheBatchIsStillRecorded(
      TestServices services) throws Exception {
    TestDb db = TestDb.of(services);
    List<Long> ids = db.enqueue("mixed", "default", 6, ONCE);
    long poison = ids.get(2);
    // Valid JSON, but beyond what jsonb's numeric can hold: refused by the server alone.
    try (TaskQ taskq = db.taskq(db.config().workerConcurrency(6))) {
      taskq.register(
          Actor.rawJson("mixed", (json, ctx) -> ctx.jobId() == poison ? "1e200000" : "[true]"));
      taskq.start();
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> db.count("jobs WHERE status IN ('succeeded', 'failed')") == 6);
    }
    assertThat(db.status(poison)).isEqualTo("failed");
    assertThat(db.job(poison).get("error_class")).isEqualTo("InvalidResult");
    assertThat(String.valueOf(db.job(poison).get("error_message")))
        .startsWith("the database refused the handler's result: ");
    assertThat(db.count("jobs WHERE status = 'succeeded' AND result = '[true]'")).isEqualTo(5);
    assertThat(db.count("job_attempt_history")).isEqualTo(6);
  }
}
