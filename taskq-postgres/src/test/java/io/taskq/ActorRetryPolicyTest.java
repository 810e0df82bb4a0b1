package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.taskq.bulk.BatchRequest;
import io.taskq.bulk.EnqueuedBatch;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * L3: the retry policy stamped into a job is the request's own when it names one, else its actor's
 * ({@code Actor.retryPolicy()}), else the default; and the stamped policy is the one retries
 * follow.
 */
@TaskQTest
@Tag("L3")
class ActorRetryPolicyTest {
  private static final RetryPolicy ACTOR_POLICY =
      RetryPolicy.of(
          RetryPolicy.Backoff.CONSTANT, Duration.ofMillis(20), Duration.ofMillis(20), 0.0, 3);
  private static final RetryPolicy REQUEST_POLICY =
      RetryPolicy.of(
          RetryPolicy.Backoff.LINEAR, Duration.ofMillis(500), Duration.ofSeconds(5), 0.1, 7);

  private static Actor<String> withPolicy(String name, JobHandler<String> handler) {
    return Actor.builder(name, PayloadCodec.rawJson(), handler).retryPolicy(ACTOR_POLICY).build();
  }

  private static Actor<String> withPolicy(String name) {
    return withPolicy(name, (json, ctx) -> null);
  }

  @BeforeAll
  static void migrate(TestServices services) {
    TestDb.of(services).migrate();
  }

  @BeforeEach
  void clean(TestServices services) throws SQLException {
    TestDb.of(services).truncate();
  }

  private static RetryPolicy stamped(JobsClient client, long id) {
    return client.find(id).orElseThrow().retryPolicy();
  }

  @Test
  void requestNamingNoPolicy_getsItsActorsPolicy(TestServices services) {
    TestDb db = TestDb.of(services);
    JobsClient client =
        JobsClient.builder(db.dataSource, db.schema).actors(List.of(withPolicy("billing"))).build();

    long id = client.enqueue(JobRequest.of("billing", "{}"));

    assertThat(stamped(client, id)).isEqualTo(ACTOR_POLICY);
  }

  @Test
  @Tag("L9")
  void batchMembersAndHook_namingNoPolicy_getTheirActorsPolicy(TestServices services)
      throws SQLException {
    TestDb db = TestDb.of(services);
    JobsClient client =
        JobsClient.builder(db.dataSource, db.schema)
            .actors(List.of(withPolicy("billing"), withPolicy("report")))
            .build();

    EnqueuedBatch batch =
        client.enqueueBatch(
            BatchRequest.of(
                    List.of(
                        JobRequest.of("billing", "{}"),
                        JobRequest.builder("billing").retryPolicy(REQUEST_POLICY).build(),
                        JobRequest.of("unregistered", "{}")))
                .onComplete(JobRequest.of("report", "{}")));

    assertThat(stamped(client, batch.jobIds().get(0))).isEqualTo(ACTOR_POLICY);
    assertThat(stamped(client, batch.jobIds().get(1))).isEqualTo(REQUEST_POLICY);
    assertThat(stamped(client, batch.jobIds().get(2))).isEqualTo(RetryPolicy.defaults());
    assertThat(
            db.rows(
                db.sql(
                    "SELECT hook_retry_backoff, hook_retry_base_ms, hook_max_attempts"
                        + " FROM {schema}.batches WHERE id = ?"),
                batch.batchId()))
        .singleElement()
        .satisfies(
            row -> {
              assertThat(row.get("hook_retry_backoff")).isEqualTo("constant");
              assertThat(((Number) row.get("hook_retry_base_ms")).longValue()).isEqualTo(20L);
              assertThat(((Number) row.get("hook_max_attempts")).intValue()).isEqualTo(3);
            });
  }

  @Test
  void requestPolicy_winsOverTheActors(TestServices services) {
    TestDb db = TestDb.of(services);
    JobsClient client =
        JobsClient.builder(db.dataSource, db.schema).actors(List.of(withPolicy("billing"))).build();

    long id = client.enqueue(JobRequest.builder("billing").retryPolicy(REQUEST_POLICY).build());

    assertThat(stamped(client, id)).isEqualTo(REQUEST_POLICY);
  }

  @Test
  void requestMaxAttemptsWithoutPolicy_boundsTheActorsPolicy(TestServices services) {
    TestDb db = TestDb.of(services);
    JobsClient client =
        JobsClient.builder(db.dataSource, db.schema).actors(List.of(withPolicy("billing"))).build();

    long id = client.enqueue(JobRequest.builder("billing").maxAttempts(9).build());

    assertThat(stamped(client, id)).isEqualTo(ACTOR_POLICY.withMaxAttempts(9));
  }

  @Test
  void actorWithoutPolicy_orUnknownActor_getsTheDefault(TestServices services) {
    TestDb db = TestDb.of(services);
    JobsClient client =
        JobsClient.builder(db.dataSource, db.schema)
            .actors(List.of(Actor.rawJson("plain", (json, ctx) -> null), withPolicy("billing")))
            .build();

    List<Long> ids =
        client.enqueueAll(List.of(JobRequest.of("plain", "{}"), JobRequest.of("elsewhere", "{}")));

    assertThat(stamped(client, ids.get(0))).isEqualTo(RetryPolicy.defaults());
    assertThat(stamped(client, ids.get(1))).isEqualTo(RetryPolicy.defaults());
  }

  @Test
  void taskqClient_stampsTheRegisteredActorsPolicy_alsoOnTheCallersConnection(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    try (TaskQ taskq = db.taskq()) {
      // The client exists before the actor is registered: it reads the registrations live.
      JobsClient client = taskq.jobs();
      taskq.register(withPolicy("billing"));
      long owned = client.enqueue(JobRequest.of("billing", "{}"));
      long inCallersTransaction;
      try (Connection c = db.dataSource.getConnection()) {
        c.setAutoCommit(false);
        inCallersTransaction = client.enqueue(c, JobRequest.of("billing", "{}"));
        c.commit();
      }

      assertThat(stamped(client, owned)).isEqualTo(ACTOR_POLICY);
      assertThat(stamped(client, inCallersTransaction)).isEqualTo(ACTOR_POLICY);
    }
  }

  @Test
  void retries_followTheActorsPolicy_toItsMaxAttempts(TestServices services) throws Exception {
    TestDb db = TestDb.of(services);
    AtomicInteger runs = new AtomicInteger();
    try (TaskQ taskq = db.taskq()) {
      taskq.register(
          withPolicy(
              "flaky",
              (json, ctx) -> {
                runs.incrementAndGet();
                throw new IllegalStateException("always fails");
              }));
      taskq.start();
      long id = taskq.jobs().enqueue(JobRequest.of("flaky", "{}"));

      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> taskq.jobs().find(id).orElseThrow().status() == JobStatus.FAILED);
      assertThat(db.attempts(id)).hasSize(ACTOR_POLICY.maxAttempts());
      assertThat(runs).hasValue(ACTOR_POLICY.maxAttempts());
    }
  }
}
