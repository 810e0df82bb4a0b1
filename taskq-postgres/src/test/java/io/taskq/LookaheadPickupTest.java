package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.taskq.postgres.internal.TestHooks;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The claim look-ahead (short jobs are claimed while the handlers still run the last batch) never
 * stalls the dispatcher: a worker whose claims came back empty, and whose look-ahead then shrinks
 * or grows as slow and quick jobs finish, still picks up every job enqueued later, promptly and
 * without the poll (30 s here) having to find them.
 */
@TaskQTest
@Tag("L4")
class LookaheadPickupTest {
  private static final Duration PROMPTLY = Duration.ofSeconds(15);
  private static final int ROUNDS = 3;
  private static final int PER_ROUND = 1000;

  @BeforeAll
  static void migrate(TestServices services) {
    TestDb.of(services).migrate();
  }

  @BeforeEach
  void clean(TestServices services) throws SQLException {
    TestDb.of(services).truncate();
  }

  @Test
  void workerThatFoundNothing_picksUpLaterJobs_quickAndSlowMixed(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    try (TaskQ taskq =
        db.taskq(
            db.config()
                .pollInterval(Duration.ofSeconds(30))
                .workerConcurrency(8)
                .claimBatchSize(16))) {
      taskq.register(
          Actor.rawJson(
              "quick",
              (json, ctx) -> {
                Thread.sleep(1 + ctx.jobId() % 3);
                return null;
              }));
      taskq.register(
          Actor.rawJson(
              "slow",
              (json, ctx) -> {
                Thread.sleep(100 + ctx.jobId() % 200);
                return null;
              }));
      taskq.start();
      // The start-up claim finds nothing.
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> TestHooks.of(taskq).worker().listenerConnects() > 0);
      JobsClient client = JobsClient.create(db.dataSource, db.schema);

      for (int round = 0; round < ROUNDS; round++) {
        List<JobRequest> jobs = new ArrayList<>();
        // Quick jobs build the look-ahead up; slow ones, finishing while the dispatcher gathers
        // slots for a fuller batch, shrink it again.
        for (int i = 0; i < PER_ROUND; i++) {
          jobs.add(JobRequest.of(i % 50 == 0 ? "slow" : "quick", "{\"i\": " + i + "}"));
        }
        client.enqueueAll(jobs);
        int finishedRound = round;
        await()
            .atMost(PROMPTLY)
            .until(
                () ->
                    db.count("jobs WHERE status = 'succeeded'")
                        == (long) PER_ROUND * (finishedRound + 1));
        // Everything ran: the next claims come back empty, then the next round is enqueued.
        Thread.sleep(100);
      }
      assertThat(db.count("jobs WHERE status <> 'succeeded'")).isZero();
    }
  }
}
