package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskq.bulk.BatchInfo;
import io.taskq.bulk.BatchRequest;
import io.taskq.bulk.CancelResult;
import io.taskq.bulk.EnqueuedBatch;
import io.taskq.core.internal.NotifyChannels;
import io.taskq.postgres.internal.FaultSeam;
import io.taskq.postgres.internal.FencedWrites;
import io.taskq.postgres.internal.NamedStatements;
import io.taskq.postgres.internal.completion.CompletionWriter;
import io.taskq.postgres.internal.dispatch.ClaimedJob;
import io.taskq.postgres.internal.dispatch.JobClaimer;
import io.taskq.postgres.internal.execution.Completion;
import io.taskq.postgres.internal.execution.InFlight;
import io.taskq.postgres.internal.execution.Outcome;
import io.taskq.postgres.internal.execution.RunningJob;
import io.taskq.postgres.internal.lease.LeaseRelease;
import io.taskq.postgres.internal.maintenance.SweepCatalog;
import io.taskq.postgres.internal.sweep.BatchExecutor;
import io.taskq.postgres.internal.sweep.BatchFence;
import io.taskq.postgres.internal.sweep.LeaseReclaimSweep;
import io.taskq.postgres.internal.sweep.StatementSweep;
import io.taskq.postgres.testing.Notifications;
import io.taskq.spi.MaintenanceListener;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Batches (L9): the member whose terminal transition finishes the batch completes it and enqueues
 * its hook in the same transaction, exactly once, whichever path made it terminal and however the
 * last two finish together; S7 repairs a hook that was lost.
 */
@TaskQTest(poolSize = 8)
@Tag("L9")
class BatchCompletionTest {
  private static final RetryPolicy ONCE = RetryPolicy.defaults().withMaxAttempts(1);
  private static TestDb db;
  private static JobsClient client;
  private static ExecutorService pool;

  @BeforeAll
  static void migrate(TestServices services) {
    db = TestDb.of(services).migrate();
    client = JobsClient.create(services.dataSource(), db.schema);
    pool = Executors.newFixedThreadPool(2);
  }

  @AfterAll
  static void stop() {
    pool.shutdownNow();
  }

  @BeforeEach
  void clean() throws SQLException {
    db.execute(db.sql("TRUNCATE {schema}.batches"));
    db.truncate();
  }

  private static JobRequest member(String actor) {
    return JobRequest.builder(actor).retryPolicy(ONCE).build();
  }

  private static BatchRequest batchOf(int members, String actor) {
    List<JobRequest> jobs = new ArrayList<>();
    for (int i = 0; i < members; i++) {
      jobs.add(member(actor));
    }
    return BatchRequest.of(jobs)
        .onComplete(
            JobRequest.builder("on_done")
                .queue("hooks")
                .priority(-2)
                .payloadJson("{\"report\": \"nightly\"}")
                .maxAttempts(7)
                .build());
  }

  private static NamedStatements sql(String file) {
    return NamedStatements.load("io/taskq/postgres/sql/" + file, db.schema);
  }

  private static List<ClaimedJob> claim(String worker, String actor, int limit)
      throws SQLException {
    return new JobClaimer(
            db.dataSource, sql("claim.sql"), worker, Duration.ofMinutes(1), new FaultSeam("c"))
        .claim(List.of("default"), List.of(actor), limit);
  }

  private static CompletionWriter writer(String worker) {
    return new CompletionWriter(
        db.dataSource,
        sql("completion.sql"),
        worker,
        Duration.ofDays(1),
        Duration.ofHours(1),
        new FaultSeam("w"));
  }

  private static long hooks() throws SQLException {
    return db.count("jobs WHERE actor = 'on_done'");
  }

  private static Map<String, Object> hookJob() throws SQLException {
    List<Map<String, Object>> rows =
        db.rows(db.sql("SELECT *, payload::text AS p FROM {schema}.jobs WHERE actor = 'on_done'"));
    assertThat(rows).hasSize(1);
    return rows.get(0);
  }

  @Test
  void enqueueBatch_storesTheBatchItsHookTemplateAndItsMembersInOneTransaction() throws Exception {
    EnqueuedBatch batch = client.enqueueBatch(batchOf(3, "member"));

    assertThat(batch.jobIds()).hasSize(3);
    assertThat(db.count("jobs WHERE batch_id = ?", batch.batchId())).isEqualTo(3);
    BatchInfo info = client.findBatch(batch.batchId()).orElseThrow();
    assertThat(info.completed()).isFalse();
    assertThat(info.total()).isEqualTo(3);
    assertThat(info.finished()).isZero();
    assertThat(info.hook()).contains("on_done");
    assertThat(info.hookJob()).isEmpty();
    assertThat(
            db.count(
                "batches WHERE hook_queue = 'hooks' AND hook_priority = -2 AND hook_max_attempts"
                    + " = 7 AND hook_payload = '{\"report\": \"nightly\"}'::jsonb"))
        .isOne();
    assertThat(client.findBatch(batch.batchId() + 1000)).isEmpty();
  }

  @Test
  void aBatchLargerThanOneStatement_attachesEveryMember() throws Exception {
    EnqueuedBatch batch = client.enqueueBatch(batchOf(12_000, "many"));

    assertThat(batch.jobIds()).hasSize(12_000).doesNotHaveDuplicates();
    assertThat(db.count("jobs WHERE batch_id = ?", batch.batchId())).isEqualTo(12_000);
    assertThat(client.findBatch(batch.batchId()).orElseThrow().total()).isEqualTo(12_000);
  }

  @Test
  void enqueueBatch_onTheCallersConnection_vanishesWhenTheCallerRollsBack() throws Exception {
    try (Connection c = db.dataSource.getConnection()) {
      c.setAutoCommit(false);
      EnqueuedBatch batch = client.enqueueBatch(c, batchOf(2, "member"));
      assertThat(batch.jobIds()).hasSize(2);
      c.rollback();
    }
    assertThat(db.count("batches")).isZero();
    assertThat(db.count("jobs")).isZero();
  }

  @Test
  void badBatches_areRefusedNamingTheProblem() {
    assertThatThrownBy(() -> BatchRequest.of(List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least one member");
    JobRequest unique = JobRequest.builder("m").uniqueFor(Duration.ofMinutes(1), "k").build();
    assertThatThrownBy(() -> BatchRequest.of(List.of(member("m"), unique)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("member 1")
        .hasMessageContaining("unique_for");
    BatchRequest ok = BatchRequest.of(List.of(member("m")));
    assertThatThrownBy(
            () -> ok.onComplete(JobRequest.builder("h").delay(Duration.ofMinutes(1)).build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("delay");
    JobsClient small = JobsClient.builder(db.dataSource, db.schema).maxPayloadBytes(10).build();
    BatchRequest bigHook =
        ok.onComplete(JobRequest.builder("h").payloadJson("\"" + "x".repeat(20) + "\"").build());
    assertThatThrownBy(() -> small.enqueueBatch(bigHook))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxPayloadBytes");
  }

  @Test
  void theLastMemberToFinish_completesTheBatchAndEnqueuesTheHookWithTheCounts() throws Exception {
    EnqueuedBatch batch = client.enqueueBatch(batchOf(4, "member"));
    List<ClaimedJob> claimed = claim("w1", "member", 3);
    assertThat(claimed).hasSize(3);
    CompletionWriter writer = writer("w1");

    writer.write(
        List.of(
            new Completion(new RunningJob(claimed.get(0)), Outcome.succeeded(null)),
            new Completion(new RunningJob(claimed.get(1)), Outcome.succeeded(null))));
    writer.write(
        List.of(
            new Completion(
                new RunningJob(claimed.get(2)), Outcome.failed("Boom", "it went wrong"))));
    assertThat(client.findBatch(batch.batchId()).orElseThrow().finished()).isEqualTo(3);
    assertThat(hooks()).isZero();

    long last =
        batch.jobIds().stream()
            .filter(id -> claimed.stream().noneMatch(c -> c.id() == id))
            .findFirst()
            .orElseThrow();
    assertThat(client.cancel(last)).isEqualTo(CancelResult.CANCELLED);

    BatchInfo info = client.findBatch(batch.batchId()).orElseThrow();
    assertThat(info.completed()).isTrue();
    assertThat(info.completedAt()).isNotNull();
    assertThat(List.of(info.succeeded(), info.failed(), info.cancelled())).containsExactly(2, 1, 1);
    Map<String, Object> hook = hookJob();
    assertThat(info.hookJob()).hasValue((Long) hook.get("id"));
    assertThat(hook.get("queue")).isEqualTo("hooks");
    assertThat(hook.get("status")).isEqualTo("pending");
    assertThat(((Number) hook.get("priority")).intValue()).isEqualTo(-2);
    assertThat(hook.get("max_attempts")).isEqualTo(7);
    assertThat(hook.get("batch_id")).isNull();
    assertThat(
            db.queryLong(
                db.sql(
                    "SELECT count(*) FROM {schema}.jobs WHERE actor = 'on_done' AND payload ="
                        + " jsonb_build_object('batch_id', ?::bigint, 'total', 4, 'succeeded', 2,"
                        + " 'failed', 1, 'cancelled', 1, 'payload', '{\"report\":"
                        + " \"nightly\"}'::jsonb)"),
                batch.batchId()))
        .isOne();
  }

  @Test
  void aBatchWithoutAHook_completesWithoutEnqueuingAJob() throws Exception {
    EnqueuedBatch batch = client.enqueueBatch(BatchRequest.of(List.of(member("member"))));
    client.cancel(batch.jobIds().get(0));

    BatchInfo info = client.findBatch(batch.batchId()).orElseThrow();
    assertThat(info.completed()).isTrue();
    assertThat(info.hookJob()).isEmpty();
    assertThat(db.count("jobs")).isOne();
  }

  @Test
  @Tag("S2")
  void membersFailedByTheDeadlineSweep_countAsFailed() throws Exception {
    EnqueuedBatch batch =
        client.enqueueBatch(
            BatchRequest.of(
                    List.of(
                        JobRequest.builder("member").scheduleToClose(Duration.ofMillis(1)).build(),
                        JobRequest.builder("member").scheduleToClose(Duration.ofMillis(1)).build()))
                .onComplete(JobRequest.of("on_done", "{}")));
    Thread.sleep(20);

    int failed =
        new BatchExecutor(db.schema)
            .runInOwnTransaction(
                db.dataSource,
                SweepCatalog.SWEEP_DEADLINE_EXCEEDED.batch(db.schema),
                100,
                Duration.ofSeconds(5),
                BatchFence.NONE);

    assertThat(failed).isEqualTo(2);
    BatchInfo info = client.findBatch(batch.batchId()).orElseThrow();
    assertThat(info.completed()).isTrue();
    assertThat(info.failed()).isEqualTo(2);
    assertThat(hooks()).isOne();
  }

  @Test
  @Tag("S1")
  void membersCrashedByTheLeaseReclaimSweep_countAsFailed_andTheHookIsWoken() throws Exception {
    EnqueuedBatch batch = client.enqueueBatch(batchOf(2, "member"));
    claim("w1", "member", 2);
    db.execute(
        db.sql(
            "UPDATE {schema}.jobs SET lock_expires_at = now() - interval '1 minute'"
                + " WHERE batch_id = "
                + batch.batchId()));
    String wake = NotifyChannels.of(db.schema).wake().name();

    try (Notifications notifications = Notifications.listen(db.dataSource, wake)) {
      new BatchExecutor(db.schema)
          .runInOwnTransaction(
              db.dataSource,
              new LeaseReclaimSweep(
                  db.schema, Duration.ofMinutes(1), Duration.ofHours(1), MaintenanceListener.NONE),
              100,
              Duration.ofSeconds(5),
              BatchFence.NONE);

      assertThat(notifications.receiveUntil(wake + ":hooks")).contains(wake + ":hooks");
    }
    BatchInfo info = client.findBatch(batch.batchId()).orElseThrow();
    assertThat(info.completed()).isTrue();
    assertThat(info.failed()).isEqualTo(2);
    assertThat(db.count("jobs WHERE batch_id = ? AND status = 'crashed'", batch.batchId()))
        .isEqualTo(2);
    assertThat(hooks()).isOne();
  }

  @Test
  @Tag("L11")
  void aMemberReleasedAtShutdownWithACancelInFlight_countsAsCancelled() throws Exception {
    EnqueuedBatch batch = client.enqueueBatch(batchOf(1, "member"));
    ClaimedJob running = claim("w1", "member", 1).get(0);
    client.cancel(running.id());
    RunningJob job = new RunningJob(running);
    InFlight inFlight = new InFlight();
    inFlight.add(job);

    int released =
        new LeaseRelease(
                db.dataSource,
                sql("lease.sql"),
                "w1",
                NotifyChannels.of(db.schema).wake().name(),
                inFlight,
                new FencedWrites())
            .release(List.of(job));

    assertThat(released).isOne();

    BatchInfo info = client.findBatch(batch.batchId()).orElseThrow();
    assertThat(info.completed()).isTrue();
    assertThat(info.cancelled()).isOne();
    assertThat(hooks()).isOne();
  }

  /**
   * The race the batch lock exists for: two workers record the last two members' outcomes at the
   * same instant. Whichever order the two transactions take the batch row in, exactly one of them
   * sees the other's count and fires the hook. Repeated, so an unlocked count would show up.
   */
  @Test
  void lastTwoMembersFinishingAtOnceOnTwoWorkers_fireTheHookExactlyOnce() throws Exception {
    int rounds = 60;
    CompletionWriter first = writer("w1");
    CompletionWriter second = writer("w2");
    List<Long> batchIds = new ArrayList<>();
    for (int round = 0; round < rounds; round++) {
      String actor = "race" + round;
      EnqueuedBatch batch = client.enqueueBatch(batchOf(2, actor));
      batchIds.add(batch.batchId());
      ClaimedJob a = claim("w1", actor, 1).get(0);
      ClaimedJob b = claim("w2", actor, 1).get(0);
      CyclicBarrier together = new CyclicBarrier(2);
      Future<?> one =
          pool.submit(
              () -> {
                together.await();
                return first.write(
                    List.of(new Completion(new RunningJob(a), Outcome.succeeded(null))));
              });
      Future<?> two =
          pool.submit(
              () -> {
                together.await();
                return second.write(
                    List.of(new Completion(new RunningJob(b), Outcome.failed("E", "no"))));
              });
      one.get(30, TimeUnit.SECONDS);
      two.get(30, TimeUnit.SECONDS);
    }

    for (long id : batchIds) {
      assertThat(client.findBatch(id).orElseThrow().completed()).isTrue();
    }
    assertThat(hooks()).isEqualTo(rounds);
    assertThat(
            db.queryLong(
                db.sql(
                    "SELECT count(DISTINCT payload ->> 'batch_id') FROM {schema}.jobs"
                        + " WHERE actor = 'on_done' AND payload ->> 'succeeded' = '1'"
                        + " AND payload ->> 'failed' = '1'")))
        .isEqualTo(rounds);
    assertThat(
            db.count(
                "batches b WHERE status = 'completed' AND succeeded = 1 AND failed = 1"
                    + " AND hook_job_id = (SELECT j.id FROM "
                    + db.schema.quoted()
                    + ".jobs j WHERE j.actor = 'on_done'"
                    + " AND (j.payload ->> 'batch_id')::bigint = b.id)"))
        .isEqualTo(rounds);
  }

  /** The same race between two different paths: a worker's completion and an operator's cancel. */
  @Test
  void aCompletionAndACancelFinishingTheLastTwoAtOnce_fireTheHookExactlyOnce() throws Exception {
    int rounds = 40;
    CompletionWriter writer = writer("w1");
    for (int round = 0; round < rounds; round++) {
      String actor = "mixed" + round;
      EnqueuedBatch batch = client.enqueueBatch(batchOf(2, actor));
      ClaimedJob running = claim("w1", actor, 1).get(0);
      long pending =
          batch.jobIds().stream().filter(id -> id != running.id()).findFirst().orElseThrow();
      CyclicBarrier together = new CyclicBarrier(2);
      Future<?> done =
          pool.submit(
              () -> {
                together.await();
                return writer.write(
                    List.of(new Completion(new RunningJob(running), Outcome.succeeded(null))));
              });
      Future<?> cancelled =
          pool.submit(
              () -> {
                together.await();
                return client.cancel(pending);
              });
      done.get(30, TimeUnit.SECONDS);
      cancelled.get(30, TimeUnit.SECONDS);
    }

    assertThat(hooks()).isEqualTo(rounds);
    assertThat(db.count("batches WHERE status = 'completed' AND succeeded = 1 AND cancelled = 1"))
        .isEqualTo(rounds);
  }

  /**
   * S7: members made terminal behind the completion path's back (a hook lost, say by a writer that
   * predates batches) leave the batch active; the stale-batch sweep completes it and enqueues the
   * hook once, and nothing fires it a second time.
   */
  @Test
  @Tag("S7")
  void theStaleBatchSweep_repairsALostHookOnce() throws Exception {
    EnqueuedBatch batch = client.enqueueBatch(batchOf(3, "member"));
    db.execute(
        db.sql(
            "UPDATE {schema}.jobs SET status = 'succeeded', finished_at = now() WHERE batch_id = "
                + batch.batchId()));
    assertThat(client.findBatch(batch.batchId()).orElseThrow().completed()).isFalse();
    BatchExecutor executor = new BatchExecutor(db.schema);
    StatementSweep sweep = SweepCatalog.COMPLETE_STALE_BATCHES.batch(db.schema);

    assertThat(
            executor.runInOwnTransaction(
                db.dataSource, sweep, 100, Duration.ofSeconds(5), BatchFence.NONE))
        .isOne();
    assertThat(
            executor.runInOwnTransaction(
                db.dataSource, sweep, 100, Duration.ofSeconds(5), BatchFence.NONE))
        .isZero();

    BatchInfo info = client.findBatch(batch.batchId()).orElseThrow();
    assertThat(info.completed()).isTrue();
    assertThat(info.succeeded()).isEqualTo(3);
    assertThat(hooks()).isOne();
    assertThat(info.hookJob()).hasValue((Long) hookJob().get("id"));
  }

  /**
   * S7 racing the completion path on the last member: the sweep either sees the member still
   * running (and leaves the batch to the completion) or finds the batch completed; never both fire.
   */
  @Test
  @Tag("S7")
  void theStaleBatchSweepRacingTheLastCompletion_neverFiresASecondHook() throws Exception {
    int rounds = 40;
    CompletionWriter writer = writer("w1");
    BatchExecutor executor = new BatchExecutor(db.schema);
    StatementSweep sweep = SweepCatalog.COMPLETE_STALE_BATCHES.batch(db.schema);
    for (int round = 0; round < rounds; round++) {
      String actor = "s7race" + round;
      client.enqueueBatch(batchOf(1, actor));
      ClaimedJob running = claim("w1", actor, 1).get(0);
      CyclicBarrier together = new CyclicBarrier(2);
      Future<?> done =
          pool.submit(
              () -> {
                together.await();
                return writer.write(
                    List.of(new Completion(new RunningJob(running), Outcome.succeeded(null))));
              });
      Future<?> repaired =
          pool.submit(
              () -> {
                together.await();
                return executor.runInOwnTransaction(
                    db.dataSource, sweep, 100, Duration.ofSeconds(5), BatchFence.NONE);
              });
      done.get(30, TimeUnit.SECONDS);
      repaired.get(30, TimeUnit.SECONDS);
    }
    executor.runInOwnTransaction(db.dataSource, sweep, 100, Duration.ofSeconds(5), BatchFence.NONE);

    assertThat(hooks()).isEqualTo(rounds);
    assertThat(db.count("batches WHERE status = 'completed'")).isEqualTo(rounds);
  }
}
