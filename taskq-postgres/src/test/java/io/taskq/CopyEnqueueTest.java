package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.taskq.bulk.BatchRequest;
import io.taskq.bulk.EnqueuedBatch;
import io.taskq.core.internal.NotifyChannels;
import io.taskq.postgres.internal.migrate.Migrations;
import io.taskq.postgres.testing.Db;
import io.taskq.postgres.testing.Notifications;
import io.taskq.postgres.testing.StatementCounter;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * X3: a large batch without unique keys is written with COPY (unless a full chunk is one option set
 * of small jobs, which takes the one-set INSERT), and stores exactly what the INSERT statements
 * store: the same options, status and times per job, ids in input order, one wake per due queue on
 * commit only, nothing after a rollback. Everything the client does around the insert (payload
 * checks before any SQL, the actor's queue and retry policy, interceptors, batches, errors that
 * name the job) holds on the COPY path as on the INSERT path.
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

  /**
   * Whether a COPY ran among {@code counter}'s statements: its first round trip is copy_prepare.
   */
  private static boolean copied(StatementCounter counter) {
    return counter.executed().stream().anyMatch(sql -> sql.contains("pg_get_serial_sequence"));
  }

  /**
   * {@code n} small jobs in two option sets (a label alternates), so a full chunk of them takes
   * COPY: a full chunk of one small option set takes the one-set INSERT instead (below).
   */
  private static List<JobRequest> plain(String actor, int n) {
    return IntStream.range(0, n)
        .mapToObj(
            i ->
                JobRequest.builder(actor)
                    .payloadJson("{\"i\": " + i + "}")
                    .labels(Map.of("half", String.valueOf(i % 2)))
                    .build())
        .toList();
  }

  private static List<JobRequest> oneSet(String actor, int n, String padding) {
    return IntStream.range(0, n)
        .mapToObj(i -> JobRequest.of(actor, "{\"i\": " + i + ", \"p\": \"" + padding + "\"}"))
        .toList();
  }

  @Test
  void fullChunkOfOneSmallOptionSet_takesTheOneSetInsert_andStoresWhatCopyStores(
      TestServices services) {
    StatementCounter counter = new StatementCounter(services.dataSource());
    JobsClient counted = JobsClient.create(counter, schema);
    List<JobRequest> small = oneSet("copy-one-set", BIG, "");

    List<Long> inserted = counted.enqueueAll(small);

    assertThat(copied(counter)).as("a full chunk of one small option set: no COPY").isFalse();
    assertThat(counter.executed()).anyMatch(sql -> sql.contains("AS r(payload, ord)"));
    assertThat(inserted).hasSize(BIG).doesNotHaveDuplicates().isSorted();
    List<JobRequest> twoSets = new ArrayList<>(small);
    twoSets.set(BIG - 1, small.get(BIG - 1).toBuilder().priority(1).build());
    List<Long> copied = counted.enqueueAll(twoSets);
    assertThat(copied(counter)).as("the same chunk in two option sets: COPY").isTrue();
    assertThat(stored(inserted.subList(0, BIG - 1)))
        .containsExactlyElementsOf(stored(copied.subList(0, BIG - 1)));
  }

  @Test
  void fullChunkOfOneOptionSetOverAMebibyte_takesCopy(TestServices services) {
    StatementCounter counter = new StatementCounter(services.dataSource());
    JobsClient counted = JobsClient.create(counter, schema);
    // 5 000 payloads of about 320 bytes: 1.5 MiB, over the one-set INSERT's bound.
    List<Long> ids = counted.enqueueAll(oneSet("copy-one-set-big", BIG, "p".repeat(300)));

    assertThat(copied(counter)).isTrue();
    assertThat(ids).hasSize(BIG).doesNotHaveDuplicates().isSorted();
  }

  @Test
  @Tag("R5")
  @Tag("L3")
  void copiedBatchOfAnActorThatDeclaresQueueAndPolicy_takesThem_unlessTheJobNamesItsOwn(
      TestServices services) {
    RetryPolicy policy =
        RetryPolicy.of(
            RetryPolicy.Backoff.CONSTANT, Duration.ofMillis(700), Duration.ofSeconds(9), 0.0, 4);
    Actor<String> actor =
        Actor.builder("copy-declared", PayloadCodec.rawJson(), (json, ctx) -> null)
            .queue("declared-q")
            .retryPolicy(policy)
            .build();
    StatementCounter counter = new StatementCounter(services.dataSource());
    JobsClient declared = JobsClient.builder(counter, schema).actors(List.of(actor)).build();
    List<JobRequest> batch = new ArrayList<>(plain("copy-declared", BIG));
    batch.set(7, JobRequest.builder("copy-declared").queue("own-q").maxAttempts(9).build());

    List<Long> ids = declared.enqueueAll(batch);

    assertThat(copied(counter)).as("the COPY path ran").isTrue();
    assertThat(ids).hasSize(BIG).isSorted();
    String sql =
        "SELECT concat_ws('|', queue, max_attempts, retry_backoff, retry_base_ms, retry_cap_ms)"
            + " FROM "
            + schema.quoted()
            + ".jobs WHERE id = ?";
    assertThat(db.queryColumn(sql, ids.get(0))).containsExactly("declared-q|4|constant|700|9000");
    assertThat(db.queryColumn(sql, ids.get(BIG - 1)))
        .containsExactly("declared-q|4|constant|700|9000");
    assertThat(db.queryColumn(sql, ids.get(7)).get(0).toString()).startsWith("own-q|9|");
    assertThat(
            db.queryLong(
                "SELECT count(*) FROM "
                    + schema.quoted()
                    + ".jobs WHERE actor = 'copy-declared' AND queue = 'declared-q'"))
        .isEqualTo(BIG - 1);
  }

  @Test
  @Tag("L9")
  void copiedBatchMembers_areAttachedToTheirBatch_inInputOrder(TestServices services) {
    StatementCounter counter = new StatementCounter(services.dataSource());
    JobsClient counted = JobsClient.create(counter, schema);

    EnqueuedBatch batch =
        counted.enqueueBatch(
            BatchRequest.of(plain("copy-member", BIG + 3))
                .onComplete(JobRequest.of("copy-hook", "{}")));

    assertThat(copied(counter)).isTrue();
    assertThat(batch.jobIds()).hasSize(BIG + 3).isSorted().doesNotHaveDuplicates();
    assertThat(
            db.queryColumn(
                "SELECT (payload->>'i')::int FROM "
                    + schema.quoted()
                    + ".jobs WHERE batch_id = ? ORDER BY id",
                batch.batchId()))
        .hasSize(BIG + 3)
        .isSorted()
        .startsWith(0, 1, 2)
        .endsWith(BIG + 2);
    assertThat(counted.findBatch(batch.batchId()).orElseThrow().total()).isEqualTo(BIG + 3);
  }

  @Test
  @Tag("P6")
  void copiedBatch_passesTheEnqueueInterceptors_andStoresWhatTheyChanged(TestServices services) {
    StatementCounter counter = new StatementCounter(services.dataSource());
    JobsClient intercepted =
        JobsClient.builder(counter, schema)
            .interceptEnqueue(
                enqueue -> {
                  List<JobRequest> changed = new ArrayList<>();
                  for (JobRequest r : enqueue.requests()) {
                    Map<String, String> labels = new HashMap<>(r.labels());
                    labels.put("seen-by", "interceptor");
                    changed.add(r.toBuilder().labels(labels).priority(5).build());
                  }
                  return enqueue.proceed(changed);
                })
            .build();

    List<Long> ids = intercepted.enqueueAll(plain("copy-intercepted", BIG));

    assertThat(copied(counter)).isTrue();
    assertThat(
            db.queryLong(
                "SELECT count(*) FROM "
                    + schema.quoted()
                    + ".jobs WHERE id = ANY(?) AND labels->>'seen-by' = 'interceptor'"
                    + " AND priority = 5",
                (Object) ids.toArray(new Long[0])))
        .isEqualTo(BIG);
  }

  @Test
  void copySizedBatchWithAPayloadOverTheLimit_isRefusedBeforeAnySql_namingTheJob(
      TestServices services) {
    StatementCounter counter = new StatementCounter(services.dataSource());
    JobsClient limited = JobsClient.builder(counter, schema).maxPayloadBytes(64).build();
    List<JobRequest> batch = new ArrayList<>(plain("copy-limit", BIG));
    batch.set(4321, JobRequest.of("copy-limit", "{\"big\": \"" + "x".repeat(100) + "\"}"));

    assertThatThrownBy(() -> limited.enqueueAll(batch))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("job 4321 of the batch (actor 'copy-limit')")
        .hasMessageContaining("maxPayloadBytes");
    assertThat(counter.count()).as("no statement was sent").isZero();
  }

  @Test
  void aRowTheDatabaseRefusesInsideTheCopy_namesTheJob_andNothingOfTheBatchIsStored(
      TestServices services) {
    db.execute(
        "ALTER TABLE "
            + schema.quoted()
            + ".jobs ADD CONSTRAINT copy_named_check"
            + " CHECK (actor <> 'copy-named' OR payload ? 'i')");
    StatementCounter counter = new StatementCounter(services.dataSource());
    JobsClient counted = JobsClient.create(counter, schema);
    long before = db.queryLong("SELECT count(*) FROM " + schema.quoted() + ".jobs");
    List<JobRequest> batch = new ArrayList<>(plain("copy-named", 2 * BIG + 10));
    batch.set(BIG + 3210, JobRequest.of("copy-named", "{\"no-i\": true}"));

    assertThatThrownBy(() -> counted.enqueueAll(batch))
        .isInstanceOf(JobStoreException.class)
        .hasMessageContaining("job " + (BIG + 3210) + " of the batch (actor 'copy-named')")
        .hasMessageContaining("copy_named_check")
        .satisfies(e -> assertThat(((JobStoreException) e).sqlState()).isEqualTo("23514"));
    assertThat(copied(counter)).isTrue();
    assertThat(db.queryLong("SELECT count(*) FROM " + schema.quoted() + ".jobs"))
        .as("the first, good chunk rolled back with the bad one")
        .isEqualTo(before);
  }

  @Test
  @Tag("M2")
  void severalChunksAndCallsInOneTransaction_wakeEachQueueOnce_andOnlyOnCommit(
      TestServices services) throws Exception {
    String channel = NotifyChannels.of(schema).wake().name();
    StatementCounter counter = new StatementCounter(services.dataSource());
    JobsClient counted = JobsClient.create(counter, schema);
    try (Notifications wake = Notifications.listen(services.dataSource(), channel);
        Connection c = counter.getConnection()) {
      // Caller's transaction: two COPY chunks and an INSERT chunk, then two more calls.
      c.setAutoCommit(false);
      List<Long> ids = new ArrayList<>(counted.enqueueAll(c, plain("copy-once", 2 * BIG + 10)));
      ids.addAll(counted.enqueueAll(c, plain("copy-once", BIG)));
      ids.add(counted.enqueue(c, JobRequest.of("copy-once", "{}")));
      assertThat(copied(counter)).isTrue();
      assertThat(wake.receive(200)).as("nothing before commit").isEmpty();
      c.rollback();
      assertThat(wake.receive(300)).as("a rolled-back transaction wakes nobody").isEmpty();
      assertThat(
              db.queryLong(
                  "SELECT count(*) FROM " + schema.quoted() + ".jobs WHERE id = ANY(?)",
                  (Object) ids.toArray(new Long[0])))
          .as("nothing of the rolled-back transaction is stored")
          .isZero();

      counted.enqueueAll(c, plain("copy-once", 2 * BIG + 10));
      counted.enqueueAll(c, plain("copy-once", BIG));
      counted.enqueue(c, JobRequest.builder("copy-once").queue("copy-other").build());
      c.commit();
      assertThat(wake.receiveUntil(channel + ":copy-other"))
          .containsExactly(channel + ":" + JobRequest.DEFAULT_QUEUE, channel + ":copy-other");
      assertThat(wake.receive(300)).as("one wake per queue per transaction").isEmpty();

      // The client's own transaction: several chunks, one wake.
      c.setAutoCommit(true);
      counted.enqueueAll(plain("copy-once", 2 * BIG + 10));
      assertThat(wake.receiveUntil(channel + ":" + JobRequest.DEFAULT_QUEUE))
          .containsExactly(channel + ":" + JobRequest.DEFAULT_QUEUE);
      assertThat(wake.receive(300)).isEmpty();
    }
  }

  /** The transaction's statement_timeout as the server reports it. */
  private static String statementTimeout(Connection c) throws Exception {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SHOW statement_timeout")) {
      rs.next();
      return rs.getString(1);
    }
  }

  @Test
  @Tag("D10")
  void copyThatWaitsPastTheStatementTimeout_failsWith57014_insteadOfWaitingForever(
      TestServices services) throws Exception {
    // PgJDBC's copyIn takes no query timeout: only the server can bound the COPY. Another session
    // holds a lock that keeps every writer out of jobs; copy_prepare does not touch the table, so
    // the COPY itself is what waits.
    JobsClient bounded =
        JobsClient.builder(services.dataSource(), schema)
            .statementTimeout(Duration.ofSeconds(1))
            .build();
    long before = db.queryLong("SELECT count(*) FROM " + schema.quoted() + ".jobs");
    try (Connection holder = services.dataSource().getConnection()) {
      holder.setAutoCommit(false);
      try (Statement s = holder.createStatement()) {
        s.execute("LOCK TABLE " + schema.quoted() + ".jobs IN SHARE MODE");
      }
      try {
        assertTimeoutPreemptively(
            Duration.ofSeconds(30),
            () ->
                assertThatThrownBy(() -> bounded.enqueueAll(plain("copy-timeout", BIG)))
                    .isInstanceOf(JobStoreException.class)
                    .satisfies(
                        e -> assertThat(((JobStoreException) e).sqlState()).isEqualTo("57014")),
            "a COPY blocked on a lock must end at the client's statement timeout");
      } finally {
        holder.rollback();
      }
    }
    assertThat(db.queryLong("SELECT count(*) FROM " + schema.quoted() + ".jobs")).isEqualTo(before);
  }

  @Test
  @Tag("D10")
  void copyInTheCallersTransaction_leavesTheTransactionsStatementTimeoutAsItWas(
      TestServices services) throws Exception {
    try (Connection c = services.dataSource().getConnection()) {
      c.setAutoCommit(false);
      String session = statementTimeout(c);
      client.enqueueAll(c, plain("copy-own-timeout", BIG));
      assertThat(statementTimeout(c)).as("no setting of the caller's").isEqualTo(session);

      try (Statement s = c.createStatement()) {
        s.execute("SET LOCAL statement_timeout = '123s'");
      }
      client.enqueueAll(c, plain("copy-own-timeout", BIG));
      assertThat(statementTimeout(c)).as("the caller's SET LOCAL").isEqualTo("123s");
      c.rollback();
    }
  }
}
