package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.taskq.postgres.internal.FaultSeam;
import io.taskq.postgres.internal.FencedWrites;
import io.taskq.postgres.internal.NamedStatements;
import io.taskq.postgres.internal.TestHooks;
import io.taskq.postgres.internal.WorkerIdentity;
import io.taskq.postgres.internal.completion.CompletionWriter;
import io.taskq.postgres.internal.dispatch.ClaimedJob;
import io.taskq.postgres.internal.dispatch.JobClaimer;
import io.taskq.postgres.internal.execution.Completion;
import io.taskq.postgres.internal.execution.InFlight;
import io.taskq.postgres.internal.execution.Outcome;
import io.taskq.postgres.internal.execution.RunningJob;
import io.taskq.postgres.internal.lease.Heartbeat;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Fencing (L4, D9): once a job's lease was taken over (reclaimed and claimed again, which gives it
 * a new lease token), nothing the old owner writes changes the job.
 */
@TaskQTest
@Tag("L4")
@Tag("D9")
class FencingTest {
  private static final RetryPolicy ONCE = RetryPolicy.defaults().withMaxAttempts(1);

  @BeforeAll
  static void migrate(TestServices services) {
    TestDb.of(services).migrate();
  }

  @BeforeEach
  void clean(TestServices services) throws SQLException {
    TestDb.of(services).truncate();
  }

  private static NamedStatements sql(TestDb db, String file) {
    return NamedStatements.load("io/taskq/postgres/sql/" + file, db.schema);
  }

  private static ClaimedJob claimOne(TestDb db, String workerId) throws SQLException {
    JobClaimer claimer =
        new JobClaimer(
            db.dataSource,
            sql(db, "claim.sql"),
            workerId,
            Duration.ofMinutes(1),
            new FaultSeam("c"));
    List<ClaimedJob> claimed = claimer.claim(List.of("default"), List.of("fenced"), 10);
    assertThat(claimed).hasSize(1);
    return claimed.get(0);
  }

  /** What the lease sweep plus another worker's claim do to the row: a new owner and token. */
  private static void takeOver(TestDb db, long id) throws SQLException {
    db.execute(
        db.sql(
            "UPDATE {schema}.jobs SET lease_token = nextval('{schema}.lease_token_seq'),"
                + " locked_by = 'otherworker' WHERE id = "
                + id));
  }

  @Test
  void completionAfterTakeover_affectsNothing(TestServices services) throws Exception {
    TestDb db = TestDb.of(services);
    long id = db.enqueueOne("fenced", ONCE);
    ClaimedJob claim = claimOne(db, "oldworker");
    takeOver(db, id);
    Map<String, Object> before = db.job(id);

    CompletionWriter writer =
        new CompletionWriter(
            db.dataSource,
            sql(db, "completion.sql"),
            "oldworker",
            Duration.ofDays(1),
            Duration.ofHours(1),
            new FaultSeam("w"));
    RunningJob job = new RunningJob(claim);
    assertThat(writer.write(List.of(new Completion(job, Outcome.succeeded("{\"stale\": true}")))))
        .isEmpty();
    assertThat(writer.write(List.of(new Completion(job, Outcome.failed(new RuntimeException())))))
        .isEmpty();

    assertThat(db.job(id)).isEqualTo(before);
    assertThat(db.job(id).get("status")).isEqualTo("running");
    assertThat(db.attempts(id)).isEmpty();
    assertThat(db.events(id)).isEmpty();
  }

  @Test
  void heartbeatAfterTakeover_renewsNothingAndFlagsTheHandler(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    long id = db.enqueueOne("fenced", ONCE);
    ClaimedJob claim = claimOne(db, "oldworker");
    takeOver(db, id);
    Object leaseBefore = db.job(id).get("lock_expires_at");

    InFlight inFlight = new InFlight();
    RunningJob job = new RunningJob(claim);
    inFlight.add(job);
    FencedWrites fenced = new FencedWrites();
    Heartbeat heartbeat =
        new Heartbeat(
            db.dataSource,
            sql(db, "lease.sql"),
            new WorkerIdentity("oldworker", "host", 1, List.of("default"), 1),
            Duration.ofMinutes(5),
            inFlight,
            fenced,
            new FaultSeam("h"));
    heartbeat.tick();

    assertThat(db.job(id).get("lock_expires_at")).isEqualTo(leaseBefore);
    assertThat(job.isCancelRequested()).isTrue();
    assertThat(fenced.count()).isEqualTo(1);
  }

  @Test
  void heartbeat_renewsTheLeaseItHolds(TestServices services) throws Exception {
    TestDb db = TestDb.of(services);
    long id = db.enqueueOne("fenced", ONCE);
    ClaimedJob claim = claimOne(db, "holder");
    Object leaseBefore = db.job(id).get("lock_expires_at");

    InFlight inFlight = new InFlight();
    RunningJob job = new RunningJob(claim);
    inFlight.add(job);
    Heartbeat heartbeat =
        new Heartbeat(
            db.dataSource,
            sql(db, "lease.sql"),
            new WorkerIdentity("holder", "host", 1, List.of("default"), 1),
            Duration.ofMinutes(5),
            inFlight,
            new FencedWrites(),
            new FaultSeam("h"));
    heartbeat.tick();

    assertThat((java.time.Instant) db.job(id).get("lock_expires_at"))
        .isAfter((java.time.Instant) leaseBefore);
    assertThat(job.isCancelRequested()).isFalse();
    assertThat(db.count("workers WHERE id = 'holder'")).isEqualTo(1);
  }

  @Test
  void workerWhoseLeaseWasTakenOver_reportsTheFencedWriteAndChangesNothing(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    long id = db.enqueueOne("fenced", ONCE);
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch proceed = new CountDownLatch(1);
    try (TaskQ taskq = db.taskq()) {
      taskq.register(
          Actor.rawJson(
              "fenced",
              (json, ctx) -> {
                entered.countDown();
                proceed.await(30, TimeUnit.SECONDS);
                return "{\"late\": true}";
              }));
      taskq.start();
      assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
      takeOver(db, id);
      Map<String, Object> before = db.job(id);
      proceed.countDown();
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> TestHooks.of(taskq).worker().fencedWrites() >= 1);
      await().atMost(Duration.ofSeconds(10)).until(() -> TestHooks.of(taskq).worker().held() == 0);
      assertThat(db.job(id)).isEqualTo(before);
    }
    assertThat(db.job(id).get("status")).isEqualTo("running");
    assertThat(db.job(id).get("locked_by")).isEqualTo("otherworker");
    assertThat(db.attempts(id)).isEmpty();
  }
}
