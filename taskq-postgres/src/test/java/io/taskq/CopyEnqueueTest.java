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

/**
 * X3: a large batch without unique keys is written with COPY, and stores exactly what the INSERT
 * statements store: the same options, status and times per job, ids in input order, one wake per
 * due queue on commit only, nothing after a rollback.
 */
@TaskQTest
@Tag("X3")
@Tag("L2")
class CopyEnqueueTest {
  private static final int BIG = JobsClient.BATCH_ROWS_PER_STATEMENT;
  private static final Instant PAST = Instant.parse("2020-01-02T03:04:05.123456Z");

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

  /** A varied batch: every option, odd payload text, each job a little different. */
  private static List<JobRequest> varied(String actor) {
    RetryPolicy policy =
        RetryPolicy.of(
            RetryPolicy.Backoff.LINEAR, Duration.ofMillis(250), Duration.ofSeconds(40), 0.25, 7);
    List<JobRequest> out = new ArrayList<>();
    for (int i = 0; i < BIG; i++) {
      JobRequest.Builder b =
          JobRequest.builder(actor)
              .payloadJson("{\"i\": " + i + ", \"s\": \"tab\\t nl\\n bs\\\\ \u00e9 \\\"q\\\"\"}");
      switch (i % 5) {
        case 0 -> b.queue("copy-mail").priority(-2).labels(Map.of("t", "a\tb\\c\nd"));
        case 1 -> b.delay(Duration.ofMinutes(30)).scheduleToClose(Duration.ofHours(2));
        case 2 -> b.runAt(PAST).labels(Map.of("abs", "1")).concurrencyKey("acct-" + (i % 7));
        case 3 -> b.retryPolicy(policy).queue("copy-later").delay(Duration.ofSeconds(90));
        default -> b.maxAttempts(3).attemptTimeout(Duration.ofSeconds(45));
      }
      out.add(b.build());
    }
    return out;
  }

  private static List<Object> stored(List<Long> ids) {
    return db.queryColumn(
        "SELECT concat_ws('|', actor, queue, status, priority, payload::text, labels::text,"
            + " CASE WHEN labels->>'abs' IS NOT NULL THEN run_at::text ELSE (run_at - created_at)::text END,"
            + " (deadline_at - created_at)::text, max_attempts, retry_backoff, retry_base_ms,"
            + " retry_cap_ms, retry_jitter, concurrency_key, attempt, locked_by, unique_key,"
            + " attempt_timeout_ms)"
            + " FROM "
            + schema.quoted()
            + ".jobs WHERE id = ANY(?) ORDER BY id",
        (Object) ids.toArray(new Long[0]));
  }

  @Test
  void copiedBatch_storesWhatTheInsertStatementsStore_idsInInputOrder() {
    List<JobRequest> batch = varied("copy-parity");

    List<Long> copied = client.enqueueAll(batch);
    List<Long> inserted = new ArrayList<>();
    for (int from = 0; from < BIG; from += 1000) {
      // Below the COPY threshold: the INSERT statements.
      inserted.addAll(client.enqueueAll(batch.subList(from, from + 1000)));
    }

    assertThat(copied).hasSize(BIG).doesNotHaveDuplicates().isSorted();
    assertThat(stored(copied)).hasSize(BIG).containsExactlyElementsOf(stored(inserted));
    JobInfo job = client.find(copied.get(1)).orElseThrow();
    assertThat(job.payloadJson()).contains("\"i\": 1").contains("tab\\t nl\\n bs\\\\ \u00e9");
    assertThat(job.deadlineAt()).isEqualTo(job.createdAt().plus(Duration.ofHours(2)));
    assertThat(client.find(copied.get(2)).orElseThrow().runAt()).isEqualTo(PAST);
    // A6: the job's own attempt timeout, on both paths.
    assertThat(stored(copied.subList(4, 5))).singleElement().asString().endsWith("|45000");
    assertThat(stored(copied.subList(3, 4))).singleElement().asString().doesNotEndWith("45000");
  }

  @Test
  @Tag("M2")
  void copiedBatch_wakesEachDueQueueOnceOnCommit_andARollbackLeavesNothing(TestServices services)
      throws Exception {
    String channel = NotifyChannels.of(schema).wake().name();
    try (Notifications wake = Notifications.listen(services.dataSource(), channel);
        Connection c = services.dataSource().getConnection()) {
      c.setAutoCommit(false);
      List<Long> ids = client.enqueueAll(c, varied("copy-wake"));
      assertThat(wake.receive(200)).as("nothing before commit").isEmpty();
      c.rollback();
      assertThat(wake.receive(200)).as("nothing after a rollback").isEmpty();
      assertThat(stored(ids)).isEmpty();

      client.enqueueAll(c, varied("copy-wake"));
      c.commit();

      // copy-later only has delayed jobs: no wake for it.
      assertThat(wake.receiveUntil(channel + ":copy-mail"))
          .containsExactlyInAnyOrder(
              channel + ":" + JobRequest.DEFAULT_QUEUE, channel + ":copy-mail");
      assertThat(wake.receive(300)).as("one wake per due queue").isEmpty();
    }
  }

  @Test
  void copiedBatch_thatBreaksAConstraint_failsWhole() {
    // This test's own schema: a constraint the last job of the batch breaks in the database.
    db.execute(
        "ALTER TABLE "
            + schema.quoted()
            + ".jobs ADD CONSTRAINT copy_test_check CHECK (actor <> 'copy-bad' OR payload ? 'i')");
    long before = db.queryLong("SELECT count(*) FROM " + schema.quoted() + ".jobs");
    List<JobRequest> batch =
        new ArrayList<>(
            IntStream.range(0, BIG)
                .mapToObj(i -> JobRequest.of("copy-bad", "{\"i\": " + i + "}"))
                .toList());
    batch.add(JobRequest.of("copy-bad", "{\"no-i\": true}"));

    assertThatThrownBy(() -> client.enqueueAll(batch)).isInstanceOf(RuntimeException.class);
    assertThat(db.queryLong("SELECT count(*) FROM " + schema.quoted() + ".jobs")).isEqualTo(before);
  }
}
