package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.taskq.bulk.BatchInfo;
import io.taskq.bulk.BatchRequest;
import io.taskq.bulk.BulkCancelResult;
import io.taskq.bulk.BulkOperationException;
import io.taskq.bulk.BulkProgress;
import io.taskq.bulk.BulkProgressListener;
import io.taskq.bulk.CancelFilter;
import io.taskq.bulk.DeadlockRetriesExhaustedException;
import io.taskq.bulk.EnqueuedBatch;
import io.taskq.postgres.internal.NamedStatements;
import io.taskq.postgres.internal.TestHooks;
import io.taskq.postgres.internal.bulk.BulkFaults;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Bulk cancel (S13, F1-F3, B1, B2, B5, B6): committed batches of the event writers' batch size,
 * each with its event rows; a failure keeps what committed and a re-run finishes; the drain ends on
 * a short window, never on a short affected count; deadlocks are retried per batch.
 */
@TaskQTest(poolSize = 6)
@Tag("S13")
@Tag("F1")
class BulkCancelTest {
  private static TestDb db;
  private static JobsClient client;

  @BeforeAll
  static void migrate(TestServices services) {
    db = TestDb.of(services).migrate();
    client = JobsClient.create(services.dataSource(), db.schema);
  }

  @BeforeEach
  void clean() throws SQLException {
    db.execute(db.sql("TRUNCATE {schema}.batches"));
    db.truncate();
  }

  /** {@code n} due jobs of {@code actor}, enqueued through the client. */
  private static List<Long> enqueue(String actor, int n) {
    List<JobRequest> requests = Collections.nCopies(n, JobRequest.of(actor, "{}"));
    return client.enqueueAll(requests);
  }

  private static long status(String actor, String status) throws SQLException {
    return db.count("jobs WHERE actor = ? AND status = ?", actor, status);
  }

  private static long cancelledEvents(String actor) throws SQLException {
    return db.count("job_events WHERE actor = ? AND kind = 'cancelled'", actor);
  }

  @Test
  @Tag("B1")
  @Tag("B6")
  void tenThousandMatchingJobs_areCancelledInCommittedBatchesOfTheBatchSize() throws Exception {
    enqueue("bulk", 10_000);
    enqueue("other", 50);
    List<BulkProgress> progress = new ArrayList<>();

    BulkCancelResult result = client.cancelWhere(CancelFilter.actor("bulk"), progress::add);

    assertThat(result.cancelled()).isEqualTo(10_000);
    assertThat(result.cancelRequested()).isZero();
    // 100 full windows, then the short (empty) one that ends the drain (F2).
    assertThat(result.batches()).isEqualTo(101);
    assertThat(progress).hasSize(101);
    assertThat(progress.get(0).cancelled()).isEqualTo(100);
    assertThat(progress.get(99).cancelled()).isEqualTo(10_000);
    assertThat(progress.get(100).lastWindow()).isZero();
    assertThat(status("bulk", "cancelled")).isEqualTo(10_000);
    assertThat(status("other", "pending")).isEqualTo(50);
    assertThat(cancelledEvents("bulk")).isEqualTo(10_000);
    // B1/B6: one transaction per batch of 100, each writing its own transitions' events.
    assertThat(
            db.queryLong(
                db.sql(
                    "SELECT count(DISTINCT writer_xid) FROM {schema}.job_events WHERE actor ="
                        + " 'bulk'")))
        .isEqualTo(100);
    assertThat(
            db.queryLong(
                db.sql(
                    "SELECT max(n) FROM (SELECT count(*) AS n FROM {schema}.job_events"
                        + " WHERE actor = 'bulk' GROUP BY writer_xid) t")))
        .isEqualTo(100);
  }

  @Test
  @Tag("B5")
  void aFailureMidway_keepsTheCommittedBatches_andARerunFinishesTheRest() throws Exception {
    enqueue("bulk", 10_000);
    BulkFaults faults = TestHooks.of(client).bulkFaults();
    BulkProgressListener failAfter30 =
        p -> {
          if (p.batches() == 30) {
            TestHooks.arm(faults.batch(), 1);
          }
        };

    assertThatThrownBy(() -> client.cancelWhere(CancelFilter.actor("bulk"), failAfter30))
        .isInstanceOfSatisfying(
            BulkOperationException.class,
            e -> {
              assertThat(e).isNotInstanceOf(DeadlockRetriesExhaustedException.class);
              assertThat(e.progress().batches()).isEqualTo(30);
              assertThat(e.progress().cancelled()).isEqualTo(3_000);
              assertThat(e.sqlState()).isEqualTo("08006");
              assertThat(e).hasMessageContaining("run it again");
            });
    assertThat(faults.batch().fired()).isOne();
    assertThat(status("bulk", "cancelled")).isEqualTo(3_000);
    assertThat(status("bulk", "pending")).isEqualTo(7_000);
    assertThat(cancelledEvents("bulk")).isEqualTo(3_000);

    BulkCancelResult rest = client.cancelWhere(CancelFilter.actor("bulk"));

    assertThat(rest.cancelled()).isEqualTo(7_000);
    assertThat(status("bulk", "cancelled")).isEqualTo(10_000);
    assertThat(cancelledEvents("bulk")).isEqualTo(10_000);
  }

  /**
   * F2: a worker claims rows of the first window after the drain read it and before it locked them;
   * the claimed rows drop out of that batch (its affected count is short while its window is full),
   * and the drain goes on to the scheduled jobs behind them. A drain that stopped on the affected
   * count would leave all 100 scheduled jobs behind.
   */
  @Test
  @Tag("F2")
  void aDispatcherClaimingRowsDuringTheDrain_neverMakesItStopEarly() throws Exception {
    enqueue("drain", 100);
    client.enqueueAll(
        Collections.nCopies(100, JobRequest.builder("drain").delay(Duration.ofHours(1)).build()));
    List<BulkProgress> progress = Collections.synchronizedList(new ArrayList<>());
    CancelFilter filter =
        CancelFilter.builder()
            .actors("drain")
            .statuses(JobStatus.SCHEDULED, JobStatus.PENDING)
            .build();

    BulkCancelResult result;
    try (Connection dispatcher = db.dataSource.getConnection()) {
      dispatcher.setAutoCommit(false);
      // The claim's row locks are held until the dispatcher commits.
      int claimed = claimWithin(dispatcher, 30);
      assertThat(claimed).isEqualTo(30);
      CompletableFuture<BulkCancelResult> drain =
          CompletableFuture.supplyAsync(() -> client.cancelWhere(filter, progress::add));
      awaitBlockedBy(backendPid(dispatcher), drain);
      dispatcher.commit();
      result = drain.get(30, TimeUnit.SECONDS);
    }

    assertThat(progress.get(0).lastWindow()).isEqualTo(100);
    assertThat(progress.get(0).cancelled()).isEqualTo(70);
    assertThat(result.cancelled()).isEqualTo(170);
    assertThat(status("drain", "running")).isEqualTo(30);
    assertThat(status("drain", "pending") + status("drain", "scheduled")).isZero();
  }

  /** Runs the real claim statement (the dispatcher's) on {@code tx} without committing. */
  private static int claimWithin(Connection tx, int limit) throws SQLException {
    String claim = NamedStatements.load("io/taskq/postgres/sql/claim.sql", db.schema).get("claim");
    try (var ps = tx.prepareStatement(claim)) {
      ps.setArray(1, tx.createArrayOf("text", new Object[] {"default"}));
      ps.setArray(2, tx.createArrayOf("text", new Object[] {"drain"}));
      ps.setInt(3, limit);
      ps.setString(4, "dispatcher");
      ps.setLong(5, Duration.ofMinutes(5).toMillis());
      int n = 0;
      try (var rs = ps.executeQuery()) {
        while (rs.next()) {
          n++;
        }
      }
      return n;
    }
  }

  private static int backendPid(Connection c) throws SQLException {
    try (var s = c.createStatement();
        var rs = s.executeQuery("SELECT pg_backend_pid()")) {
      rs.next();
      return rs.getInt(1);
    }
  }

  /** Waits until some session waits on a lock {@code pid} holds; fails if the drain ended. */
  private static void awaitBlockedBy(int pid, CompletableFuture<?> drain) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (db.queryLong(
            "SELECT count(*) FROM pg_stat_activity WHERE ?::integer = ANY (pg_blocking_pids(pid))",
            pid)
        == 0) {
      if (drain.isDone()) {
        throw new AssertionError("the drain ended without waiting on the claim: " + drain.get());
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("the drain never waited on the dispatcher's row locks");
      }
      Thread.sleep(5);
    }
  }

  @Test
  @Tag("F3")
  void aForcedDeadlock_isRetried_andTheRetriedBatchCountsOnce() throws Exception {
    enqueue("dl", 250);
    BulkFaults faults = TestHooks.of(client).bulkFaults();
    TestHooks.arm(faults.deadlock(), 2);

    BulkCancelResult result = client.cancelWhere(CancelFilter.actor("dl"));

    assertThat(faults.deadlock().fired()).isEqualTo(2);
    assertThat(faults.deadlock().remaining()).isZero();
    assertThat(result.deadlockRetries()).isEqualTo(2);
    assertThat(result.cancelled()).isEqualTo(250);
    assertThat(result.batches()).isEqualTo(3);
    assertThat(status("dl", "cancelled")).isEqualTo(250);
    // The rolled-back attempts left no events behind: one per cancelled job.
    assertThat(cancelledEvents("dl")).isEqualTo(250);
  }

  @Test
  @Tag("F3")
  @Tag("Q2")
  void deadlocksOnEveryAttempt_exhaustTheRetriesWithATypedError_keepingCommittedBatches()
      throws Exception {
    enqueue("dl", 500);
    BulkFaults faults = TestHooks.of(client).bulkFaults();
    BulkProgressListener deadlockAfterTwo =
        p -> {
          if (p.batches() == 2) {
            TestHooks.arm(faults.deadlock(), 3);
          }
        };

    assertThatThrownBy(() -> client.cancelWhere(CancelFilter.actor("dl"), deadlockAfterTwo))
        .isInstanceOfSatisfying(
            DeadlockRetriesExhaustedException.class,
            e -> {
              assertThat(e.attempts()).isEqualTo(3);
              assertThat(e.sqlState()).isEqualTo("40P01");
              assertThat(e.progress().batches()).isEqualTo(2);
              assertThat(e.progress().cancelled()).isEqualTo(200);
              assertThat(e.progress().deadlockRetries()).isEqualTo(2);
            });
    assertThat(faults.deadlock().remaining()).isZero();
    assertThat(status("dl", "cancelled")).isEqualTo(200);
    assertThat(cancelledEvents("dl")).isEqualTo(200);

    assertThat(client.cancelWhere(CancelFilter.actor("dl")).cancelled()).isEqualTo(300);
  }

  @Test
  @Tag("B2")
  void aBatchOverTheStatementTimeout_propagatesAs57014_andARerunContinues() throws Exception {
    enqueue("slow", 150);
    JobsClient strict =
        JobsClient.builder(db.dataSource, db.schema)
            .eventWriterStatementTimeout(Duration.ofMillis(300))
            .build();
    long locked = db.queryLong(db.sql("SELECT min(id) FROM {schema}.jobs WHERE actor = 'slow'"));
    try (Connection holder = db.dataSource.getConnection()) {
      holder.setAutoCommit(false);
      try (var s = holder.createStatement()) {
        s.execute(db.sql("SELECT 1 FROM {schema}.jobs WHERE id = " + locked + " FOR UPDATE"));
      }
      assertThatThrownBy(() -> strict.cancelWhere(CancelFilter.actor("slow")))
          .isInstanceOfSatisfying(
              BulkOperationException.class,
              e -> {
                assertThat(e.sqlState()).isEqualTo("57014");
                assertThat(e.progress().batches()).isZero();
              });
      holder.rollback();
    }
    assertThat(status("slow", "pending")).isEqualTo(150);

    assertThat(strict.cancelWhere(CancelFilter.actor("slow")).cancelled()).isEqualTo(150);
  }

  /**
   * B3: the batch bound is set with SET LOCAL semantics inside each batch transaction; the pooled
   * connection keeps the session's own statement_timeout afterwards.
   */
  @Test
  @Tag("B3")
  void theBatchTimeout_neverLeaksOntoThePooledConnection(TestServices services) throws Exception {
    enqueue("b3", 150);
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(services.jdbcUrl());
    config.setMaximumPoolSize(1);
    try (HikariDataSource one = new HikariDataSource(config)) {
      try (Connection c = one.getConnection();
          var s = c.createStatement()) {
        s.execute("SET statement_timeout = '7s'");
      }
      JobsClient onOne = JobsClient.create(one, db.schema);

      assertThat(onOne.cancelWhere(CancelFilter.actor("b3")).cancelled()).isEqualTo(150);

      try (Connection c = one.getConnection();
          var s = c.createStatement();
          var rs = s.executeQuery("SHOW statement_timeout")) {
        rs.next();
        assertThat(rs.getString(1)).isEqualTo("7s");
      }
    }
  }

  @Test
  void filters_matchByQueueStatusLabelsAndAge_andRunningJobsGetACancelRequest() throws Exception {
    client.enqueueAll(
        List.of(
            JobRequest.builder("f").queue("q1").labels(Map.of("tenant", "a")).build(),
            JobRequest.builder("f").queue("q1").labels(Map.of("tenant", "b")).build(),
            JobRequest.builder("f").queue("q2").labels(Map.of("tenant", "a")).build(),
            JobRequest.builder("f").queue("q1").labels(Map.of("tenant", "a", "x", "y")).build()));

    BulkCancelResult byLabel =
        client.cancelWhere(CancelFilter.builder().queues("q1").label("tenant", "a").build());
    assertThat(byLabel.cancelled()).isEqualTo(2);
    assertThat(db.count("jobs WHERE status = 'pending'")).isEqualTo(2);

    assertThat(
            client
                .cancelWhere(CancelFilter.builder().olderThan(Duration.ofHours(1)).build())
                .cancelled())
        .isZero();

    long running = enqueue("r", 1).get(0);
    db.execute(
        db.sql(
            "UPDATE {schema}.jobs SET status = 'running', locked_by = 'w', lease_token = 1,"
                + " lock_expires_at = now() + interval '1 minute', attempt = 1 WHERE id = "
                + running));
    BulkCancelResult requested = client.cancelWhere(CancelFilter.actor("r"));
    assertThat(requested.cancelRequested()).isOne();
    assertThat(requested.cancelled()).isZero();
    assertThat(client.find(running).orElseThrow().cancelRequestedAt()).isNotNull();
    assertThat(client.cancelWhere(CancelFilter.actor("r")).cancelRequested())
        .as("a requested cancel is not requested again")
        .isZero();

    BulkCancelResult everything = client.cancelWhere(CancelFilter.everything().build());
    assertThat(everything.cancelled()).isEqualTo(2);
    assertThat(db.count("jobs WHERE status IN ('pending', 'scheduled')")).isZero();
  }

  @Test
  @Tag("A3")
  void aBulkCancel_namesWhoAskedOnEveryJobsEvent() throws Exception {
    enqueue("audited", 250);
    enqueue("anonymous", 3);
    BulkCancelResult byOperator =
        client.cancelWhere(CancelFilter.actor("audited"), "ops-carol", BulkProgressListener.NONE);
    assertThat(byOperator.cancelled()).isEqualTo(250);
    assertThat(byOperator.batches()).as("several batches, each noting who").isGreaterThan(1);
    assertThat(
            db.count(
                "job_events WHERE actor = 'audited' AND kind = 'cancelled' AND note = ?",
                "cancelled by ops-carol (bulk cancel)"))
        .isEqualTo(250);
    client.cancelWhere(CancelFilter.actor("anonymous"));
    assertThat(
            db.count(
                "job_events WHERE actor = 'anonymous' AND kind = 'cancelled' AND note = ?",
                "bulk cancel"))
        .isEqualTo(3);
  }

  @Test
  @Tag("A3")
  @Tag("L8")
  void aBulkCancelOfARunningJob_recordsItsRequestNamingWhoAsked() throws Exception {
    enqueue("busy", 2);
    db.execute(
        db.sql(
            "UPDATE {schema}.jobs SET status = 'running', locked_by = 'w', lease_token = 1,"
                + " lock_expires_at = now() + interval '1 minute', attempt = 1 WHERE actor = 'busy'"));
    BulkCancelResult requested =
        client.cancelWhere(CancelFilter.actor("busy"), " ops-dave ", BulkProgressListener.NONE);
    assertThat(requested.cancelRequested()).isEqualTo(2);
    assertThat(
            db.count(
                "job_events WHERE actor = 'busy' AND kind = 'cancel_requested' AND note = ?",
                "cancel requested by ops-dave (bulk cancel)"))
        .as("one cancel_requested event per running job, naming the operator")
        .isEqualTo(2);
    assertThat(db.count("job_events WHERE actor = 'busy' AND kind = 'cancelled'"))
        .as("the cancelled event is the worker's to write")
        .isZero();
    client.cancelWhere(CancelFilter.actor("busy"), "ops-erin", BulkProgressListener.NONE);
    assertThat(db.count("job_events WHERE actor = 'busy'"))
        .as("a repeated request writes nothing: the first keeps its author")
        .isEqualTo(2);
  }

  @Test
  @Tag("A3")
  void anOperatorNameWithANul_isRefusedNamingIt_andCancelsNothing() throws Exception {
    enqueue("kept", 2);
    assertThatThrownBy(
            () ->
                client.cancelWhere(
                    CancelFilter.actor("kept"), "ops\u0000x", BulkProgressListener.NONE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("operator name");
    assertThat(status("kept", "pending")).isEqualTo(2);
  }

  @Test
  void badFilters_areRefusedNamingTheProblem() {
    assertThatThrownBy(() -> CancelFilter.builder().build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("CancelFilter.everything()");
    assertThatThrownBy(() -> CancelFilter.builder().statuses(JobStatus.PENDING).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("empty cancel filter");
    assertThatThrownBy(() -> CancelFilter.builder().statuses(JobStatus.SUCCEEDED))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("SUCCEEDED is terminal");
    assertThatThrownBy(() -> CancelFilter.builder().statuses())
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> CancelFilter.builder().actors("a\u0000b"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("actor");
    assertThatThrownBy(() -> CancelFilter.builder().olderThan(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("olderThan");
    assertThatThrownBy(() -> CancelFilter.builder().queues(""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("queue");
  }

  @Test
  @Tag("L9")
  void cancellingTheMembersOfABatch_completesItAndFiresItsHookOnce() throws Exception {
    List<JobRequest> members = Collections.nCopies(250, JobRequest.of("member", "{}"));
    EnqueuedBatch batch =
        client.enqueueBatch(
            BatchRequest.of(members).onComplete(JobRequest.of("on_done", "{\"n\": 1}")));

    assertThat(client.cancelWhere(CancelFilter.actor("member")).cancelled()).isEqualTo(250);

    BatchInfo info = client.findBatch(batch.batchId()).orElseThrow();
    assertThat(info.completed()).isTrue();
    assertThat(info.cancelled()).isEqualTo(250);
    assertThat(db.count("jobs WHERE actor = 'on_done'")).isOne();
  }
}
