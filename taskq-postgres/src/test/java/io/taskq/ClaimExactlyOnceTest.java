package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Claiming (L4): three workers on one schema share 3 000 jobs, and every job runs exactly once:
 * {@code FOR UPDATE SKIP LOCKED} never hands one job to two workers.
 */
@TaskQTest
@Tag("L4")
@Tag("L1")
@Tag("L10")
class ClaimExactlyOnceTest {
  private static final int JOBS = 3_000;

  @Test
  void threeWorkers_runEveryJobExactlyOnce(TestServices services) throws Exception {
    TestDb db = TestDb.of(services).migrate();
    List<JobRequest> requests = new ArrayList<>();
    for (int i = 0; i < JOBS; i++) {
      requests.add(JobRequest.of("count", "{\"n\": " + i + "}"));
    }
    List<Long> ids = JobsClient.create(db.dataSource, db.schema).enqueueAll(requests);
    Map<Long, AtomicInteger> runs = new ConcurrentHashMap<>();
    List<TaskQ> workers = new ArrayList<>();
    Set<String> workerIds = new HashSet<>();
    try {
      for (int i = 0; i < 3; i++) {
        TaskQ taskq = db.taskq(db.config().workerConcurrency(4).claimBatchSize(5));
        workers.add(taskq);
        taskq.register(
            Actor.rawJson(
                "count",
                (json, ctx) -> {
                  runs.computeIfAbsent(ctx.jobId(), k -> new AtomicInteger()).incrementAndGet();
                  return null;
                }));
        taskq.start();
        workerIds.add(taskq.workerId());
      }
      db.notifyWake();
      await()
          .atMost(Duration.ofMinutes(2))
          .until(() -> db.count("jobs WHERE status = 'succeeded'") == JOBS);
      assertThat(db.count("job_attempt_history WHERE worker_id IS NOT NULL")).isEqualTo(JOBS);
      assertThat(
              db
                  .rows(db.sql("SELECT DISTINCT worker_id FROM {schema}.job_attempt_history"))
                  .stream()
                  .map(r -> r.get("worker_id")))
          .allMatch(workerIds::contains);
    } finally {
      workers.forEach(TaskQ::close);
    }
    assertThat(runs.keySet()).containsExactlyInAnyOrderElementsOf(ids);
    assertThat(runs.values()).allSatisfy(n -> assertThat(n.get()).isEqualTo(1));
    assertThat(db.count("job_attempt_history")).isEqualTo(JOBS);
    assertThat(db.count("jobs WHERE attempt <> 1")).isZero();
    assertThat(db.count("workers")).isZero();
  }
}
