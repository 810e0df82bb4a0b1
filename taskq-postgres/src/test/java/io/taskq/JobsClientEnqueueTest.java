package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskq.core.internal.NotifyChannels;
import io.taskq.postgres.internal.migrate.Migrations;
import io.taskq.postgres.testing.Db;
import io.taskq.postgres.testing.Notifications;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@TaskQTest
@Tag("L2")
class JobsClientEnqueueTest {
  private static SchemaName schema;
  private static JobsClient client;
  private static Db db;

  @BeforeAll
  static void migrate(TestServices services) {
    schema = SchemaName.of(services.schema());
    Migrations.apply(services.dataSource(), schema);
    client = JobsClient.create(services.dataSource(), schema);
    db = new Db(services.dataSource());
  }

  @Test
  void find_returnsEveryOptionAsStored() {
    RetryPolicy policy =
        RetryPolicy.of(
            RetryPolicy.Backoff.LINEAR, Duration.ofMillis(250), Duration.ofSeconds(40), 0.5, 7);
    long id =
        client.enqueue(
            JobRequest.builder("send_email")
                .payloadJson("{\"to\":\"a@example.com\",\"n\":[1,2]}")
                .queue("mail")
                .priority(-3)
                .scheduleToClose(Duration.ofMinutes(5))
                .retryPolicy(policy)
                .labels(Map.of("tenant", "acme", "odd \"key\"", "line\nbreak \\ \u00e9"))
                .build());

    JobInfo job = client.find(id).orElseThrow();

    assertThat(job.id()).isEqualTo(id);
    assertThat(job.actor()).isEqualTo("send_email");
    assertThat(job.queue()).isEqualTo("mail");
    assertThat(job.status()).isEqualTo(JobStatus.PENDING);
    assertThat(job.priority()).isEqualTo((short) -3);
    assertThat(job.payloadJson()).isEqualTo("{\"n\": [1, 2], \"to\": \"a@example.com\"}");
    assertThat(job.labels())
        .containsExactly(
            Map.entry("odd \"key\"", "line\nbreak \\ \u00e9"), Map.entry("tenant", "acme"));
    assertThat(job.retryPolicy()).isEqualTo(policy);
    assertThat(job.maxAttempts()).isEqualTo(7);
    assertThat(job.attempt()).isZero();
    assertThat(job.deadlineAt()).isEqualTo(job.createdAt().plus(Duration.ofMinutes(5)));
    assertThat(job.runAt()).isEqualTo(job.createdAt());
    assertThat(job.resultJson()).isNull();
    assertThat(job.finishedAt()).isNull();
    assertThat(job.archived()).isFalse();
    assertThat(client.find(id + 1_000_000)).isEmpty();
  }

  @Test
  void status_isPendingWhenDueAndScheduledWhenInTheFuture() {
    long now = client.enqueue(JobRequest.of("a", "{}"));
    long past =
        client.enqueue(
            JobRequest.builder("a").runAt(Instant.parse("2001-01-01T00:00:00Z")).build());
    long later = client.enqueue(JobRequest.builder("a").delay(Duration.ofHours(1)).build());
    Instant future = Instant.parse("2999-01-01T00:00:00.123456Z");
    long at = client.enqueue(JobRequest.builder("a").runAt(future).build());

    assertThat(client.find(now).orElseThrow().status()).isEqualTo(JobStatus.PENDING);
    assertThat(client.find(past).orElseThrow().status()).isEqualTo(JobStatus.PENDING);
    JobInfo delayed = client.find(later).orElseThrow();
    assertThat(delayed.status()).isEqualTo(JobStatus.SCHEDULED);
    assertThat(delayed.runAt()).isEqualTo(delayed.createdAt().plus(Duration.ofHours(1)));
    JobInfo timed = client.find(at).orElseThrow();
    assertThat(timed.status()).isEqualTo(JobStatus.SCHEDULED);
    assertThat(timed.runAt()).isEqualTo(future);
  }

  @Test
  void callersTransaction_commitKeepsTheJobAndRollbackLeavesNothing(TestServices services)
      throws Exception {
    long kept;
    long dropped;
    try (Connection c = services.dataSource().getConnection()) {
      c.setAutoCommit(false);
      kept = client.enqueue(c, JobRequest.of("business", "{\"order\": 1}"));
      assertThat(client.find(kept)).as("invisible before the caller commits").isEmpty();
      c.commit();

      dropped = client.enqueueAll(c, List.of(JobRequest.of("business", "{\"order\": 2}"))).get(0);
      c.rollback();
      assertThat(c.isClosed()).isFalse();
      assertThat(c.getAutoCommit()).isFalse();
    }

    assertThat(client.find(kept)).isPresent();
    assertThat(client.find(dropped)).isEmpty();
  }

  @Test
  void callersAutoCommitConnection_commitsAtOnceAndStaysInAutoCommit(TestServices services)
      throws Exception {
    try (Connection c = services.dataSource().getConnection()) {
      long id = client.enqueue(c, JobRequest.of("a", "{}"));
      long unique =
          client.enqueue(
              c, JobRequest.builder("a").uniqueFor(Duration.ofMinutes(1), "auto").build());

      assertThat(c.getAutoCommit()).isTrue();
      assertThat(client.find(id)).isPresent();
      assertThat(client.find(unique)).isPresent();
    }
  }

  @Test
  void batchOf5000_isInsertedInOneCallWithIdsInInputOrder() {
    List<JobRequest> batch =
        IntStream.range(0, 5000)
            .mapToObj(i -> JobRequest.of("batch", "{\"i\": " + i + "}"))
            .toList();

    List<Long> ids = client.enqueueAll(batch);

    assertThat(ids).hasSize(5000).doesNotHaveDuplicates().isSorted();
    List<Object> order =
        db.queryColumn(
            "SELECT (payload->>'i')::int FROM "
                + schema.quoted()
                + ".jobs WHERE id = ANY(?) ORDER BY id",
            (Object) ids.toArray(new Long[0]));
    assertThat(order).containsExactlyElementsOf(IntStream.range(0, 5000).boxed().toList());
  }

  @Test
  void mixedBatch_eachJobKeepsItsOwnOptionsAndItsPlaceInTheIdOrder() {
    JobRequest.Builder mail =
        JobRequest.builder("mail").queue("outbox").priority(2).labels(Map.of("tenant", "acme"));
    JobRequest.Builder report = JobRequest.builder("report").delay(Duration.ofHours(2));
    JobRequest.Builder plain = JobRequest.builder("plain").maxAttempts(3);
    List<JobRequest> batch = new ArrayList<>();
    for (int i = 0; i < 9; i++) {
      JobRequest.Builder options = i % 3 == 0 ? mail : i % 3 == 1 ? report : plain;
      batch.add(options.payloadJson("{\"i\": " + i + "}").build());
    }

    List<Long> ids = client.enqueueAll(batch);

    assertThat(ids).hasSize(9).doesNotHaveDuplicates().isSorted();
    for (int i = 0; i < 9; i++) {
      JobInfo job = client.find(ids.get(i)).orElseThrow();
      assertThat(job.payloadJson()).isEqualTo("{\"i\": " + i + "}");
      switch (i % 3) {
        case 0 -> {
          assertThat(job.actor()).isEqualTo("mail");
          assertThat(job.queue()).isEqualTo("outbox");
          assertThat(job.priority()).isEqualTo((short) 2);
          assertThat(job.labels()).containsExactly(Map.entry("tenant", "acme"));
          assertThat(job.status()).isEqualTo(JobStatus.PENDING);
        }
        case 1 -> {
          assertThat(job.actor()).isEqualTo("report");
          assertThat(job.queue()).isEqualTo(JobRequest.DEFAULT_QUEUE);
          assertThat(job.status()).isEqualTo(JobStatus.SCHEDULED);
          assertThat(job.runAt()).isEqualTo(job.createdAt().plus(Duration.ofHours(2)));
        }
        default -> {
          assertThat(job.actor()).isEqualTo("plain");
          assertThat(job.maxAttempts()).isEqualTo(3);
          assertThat(job.labels()).isEmpty();
          assertThat(job.status()).isEqualTo(JobStatus.PENDING);
        }
      }
    }
  }

  @Test
  void batchLargerThanOneStatement_isSplitAndStillOrdered() {
    int n = JobsClient.BATCH_ROWS_PER_STATEMENT + 7;
    List<JobRequest> batch = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      batch.add(JobRequest.builder("chunked").payloadJson("" + i).priority(i % 3).build());
    }

    List<Long> ids = client.enqueueAll(batch);

    assertThat(ids).hasSize(n).doesNotHaveDuplicates();
    assertThat(client.find(ids.get(n - 1)).orElseThrow().payloadJson()).isEqualTo("" + (n - 1));
    assertThat(client.find(ids.get(0)).orElseThrow().payloadJson()).isEqualTo("0");
  }

  @Test
  @Tag("F6")
  void nulInAnyField_isRejectedBeforeAnythingIsWritten() {
    long before = countJobs();

    assertThatThrownBy(() -> client.enqueue(JobRequest.of("nul\0actor", "{}")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("actor");
    assertThatThrownBy(() -> client.enqueue(JobRequest.of("a", "{\"x\": \"\0\"}")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("payload");
    assertThatThrownBy(
            () -> client.enqueue(JobRequest.builder("a").labels(Map.of("k", "\0")).build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("label");

    assertThat(countJobs()).isEqualTo(before);
  }

  @Test
  void oversizedPayload_isRejectedNamingBothSizesBeforeReachingTheDatabase(TestServices services) {
    JobsClient small =
        JobsClient.builder(services.dataSource(), schema).maxPayloadBytes(1024).build();
    String big = "\"" + "x".repeat(2000) + "\"";
    long before = countJobs();

    assertThatThrownBy(() -> small.enqueue(JobRequest.of("a", big)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("2002 bytes")
        .hasMessageContaining("at most 1024");
    assertThatThrownBy(
            () -> small.enqueueAll(List.of(JobRequest.of("a", "1"), JobRequest.of("b", big))))
        .hasMessageContaining("job 1 of the batch (actor 'b')");

    assertThat(countJobs()).isEqualTo(before);
    assertThat(small.enqueue(JobRequest.of("a", "\"" + "x".repeat(1022) + "\""))).isPositive();
  }

  @Test
  void clientFromConfig_takesTheSchemaAndThePayloadLimit(TestServices services) {
    TaskQConfig config = TaskQConfig.builder().schemaName(schema).maxPayloadBytes(100).build();
    JobsClient configured = JobsClient.create(services.dataSource(), config);

    assertThat(configured.schema()).isEqualTo(schema);
    assertThatThrownBy(() -> configured.enqueue(JobRequest.of("a", "\"" + "x".repeat(99) + "\"")))
        .hasMessageContaining("101 bytes")
        .hasMessageContaining("at most 100");
    assertThat(
            client.find(configured.enqueue(JobRequest.of("a", "[]"))).orElseThrow().payloadJson())
        .isEqualTo("[]");
  }

  @Test
  void clientSettings_outOfRange_areRejected(TestServices services) {
    assertThatThrownBy(() -> JobsClient.builder(services.dataSource(), schema).maxPayloadBytes(0))
        .hasMessageStartingWith("maxPayloadBytes must be in [1, 268435456], was 0");
    assertThatThrownBy(
            () ->
                JobsClient.builder(services.dataSource(), schema)
                    .statementTimeout(Duration.ofMillis(10)))
        .hasMessage("statementTimeout must be in [PT1S, PT1H], was PT0.01S");
  }

  @Test
  @Tag("M2")
  void dueJobs_wakeTheSchemasChannelOncePerQueueOnCommitOnly(TestServices services)
      throws Exception {
    String channel = NotifyChannels.of(schema).wake().name();
    try (Notifications wake = Notifications.listen(services.dataSource(), channel);
        Connection c = services.dataSource().getConnection()) {
      c.setAutoCommit(false);
      client.enqueueAll(
          c,
          List.of(
              JobRequest.builder("a").queue("q1").build(),
              JobRequest.builder("a").queue("q1").build(),
              JobRequest.builder("a").queue("q2").build(),
              JobRequest.builder("a").queue("later").delay(Duration.ofHours(1)).build()));
      assertThat(wake.receive(200)).as("nothing before commit").isEmpty();
      c.commit();

      List<String> heard = wake.receiveUntil(channel + ":q2");

      assertThat(heard).containsExactlyInAnyOrder(channel + ":q1", channel + ":q2");
    }
  }

  /**
   * A batch whose jobs share one option set takes the single-set statement: the options are stored
   * on every row, the ids follow the input, and the wake goes out once, on commit, only when the
   * jobs are due.
   */
  @Test
  @Tag("M2")
  @Tag("L7")
  void oneOptionSetBatch_storesTheOptionsOnEveryRow_andWakesOnceOnlyWhenDue(TestServices services)
      throws Exception {
    String channel = NotifyChannels.of(schema).wake().name();
    JobRequest.Builder later =
        JobRequest.builder("one-set")
            .queue("one-set-later")
            .priority(4)
            .delay(Duration.ofMinutes(30))
            .scheduleToClose(Duration.ofHours(2))
            .labels(Map.of("tenant", "acme"))
            .concurrencyKey("acct-7")
            .maxAttempts(9);
    JobRequest.Builder due = JobRequest.builder("one-set").queue("one-set-due");
    try (Notifications wake = Notifications.listen(services.dataSource(), channel);
        Connection c = services.dataSource().getConnection()) {
      c.setAutoCommit(false);
      List<Long> scheduled =
          client.enqueueAll(
              c,
              IntStream.range(0, 300)
                  .mapToObj(i -> later.payloadJson("{\"i\": " + i + "}").build())
                  .toList());
      List<Long> pending =
          client.enqueueAll(
              c,
              IntStream.range(0, 300)
                  .mapToObj(i -> due.payloadJson("{\"i\": " + i + "}").build())
                  .toList());
      assertThat(wake.receive(200)).as("nothing before commit").isEmpty();
      c.commit();

      assertThat(wake.receiveUntil(channel + ":one-set-due"))
          .containsExactly(channel + ":one-set-due");
      assertThat(wake.receive(300)).as("one wake for the due batch, none for the later").isEmpty();
      assertThat(scheduled).hasSize(300).doesNotHaveDuplicates().isSorted();
      assertThat(pending).hasSize(300).doesNotHaveDuplicates().isSorted();
      assertThat(pending.get(0)).isGreaterThan(scheduled.get(299));
      for (int i : new int[] {0, 150, 299}) {
        JobInfo job = client.find(scheduled.get(i)).orElseThrow();
        assertThat(job.payloadJson()).isEqualTo("{\"i\": " + i + "}");
        assertThat(job.status()).isEqualTo(JobStatus.SCHEDULED);
        assertThat(job.queue()).isEqualTo("one-set-later");
        assertThat(job.priority()).isEqualTo((short) 4);
        assertThat(job.runAt()).isEqualTo(job.createdAt().plus(Duration.ofMinutes(30)));
        assertThat(job.deadlineAt()).isEqualTo(job.createdAt().plus(Duration.ofHours(2)));
        assertThat(job.labels()).containsExactly(Map.entry("tenant", "acme"));
        assertThat(job.maxAttempts()).isEqualTo(9);
        assertThat(job.concurrencyKey()).isEqualTo("acct-7");
        JobInfo now = client.find(pending.get(i)).orElseThrow();
        assertThat(now.payloadJson()).isEqualTo("{\"i\": " + i + "}");
        assertThat(now.status()).isEqualTo(JobStatus.PENDING);
        assertThat(now.runAt()).isEqualTo(now.createdAt());
        assertThat(now.deadlineAt()).isNull();
        assertThat(now.concurrencyKey()).isNull();
      }
      assertThat(
              db.queryLong(
                  "SELECT count(*) FROM "
                      + schema.quoted()
                      + ".jobs WHERE concurrency_key = 'acct-7' AND created_at = run_at - interval"
                      + " '30 minutes'"))
          .isEqualTo(300);
    }
  }

  @Test
  void statementTimeout_endsAWaitOnAKeyedLockWithSqlState57014(TestServices services)
      throws Exception {
    JobsClient impatient =
        JobsClient.builder(services.dataSource(), schema)
            .statementTimeout(Duration.ofSeconds(1))
            .build();
    JobRequest unique = JobRequest.builder("a").uniqueFor(Duration.ofMinutes(1), "held").build();
    try (Connection holder = services.dataSource().getConnection()) {
      holder.setAutoCommit(false);
      impatient.enqueue(holder, unique);

      assertThatThrownBy(() -> impatient.enqueue(unique))
          .isInstanceOf(JobStoreException.class)
          .satisfies(e -> assertThat(((JobStoreException) e).sqlState()).isEqualTo("57014"));
      holder.rollback();
    }
    assertThat(impatient.enqueue(unique)).isPositive();
  }

  private static long countJobs() {
    return db.queryLong("SELECT count(*) FROM " + schema.quoted() + ".jobs");
  }
}
