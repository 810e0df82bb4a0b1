package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.taskq.operations.JobFilter;
import io.taskq.operations.Operations;
import io.taskq.operations.RetryWhereResult;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A3 acceptance: retryWhere of 10 000 failed jobs while 8 workers run. The first run is interrupted
 * after a few committed batches (its progress listener throws); the re-run retries the rest only;
 * every job ends succeeded exactly once, and the counts returned equal the database's.
 */
@TaskQTest(poolSize = 24)
@Tag("A3")
class RetryWhereUnderLoadTest {
  private static final int JOBS = 10_000;
  private static final int WORKERS = 8;

  @Test
  void retryWhere_ofTenThousandFailedJobs_underEightWorkers_runsEachExactlyOnce(
      TestServices services) throws Exception {
    TestDb db = TestDb.of(services).migrate();
    db.execute(
        db.sql(
            "INSERT INTO {schema}.jobs (actor, queue, status, payload, run_at, attempt,"
                + " max_attempts, retry_backoff, retry_base_ms, retry_cap_ms, retry_jitter,"
                + " error_class, error_message, finished_at)"
                + " SELECT 'fixed', 'default', 'failed', jsonb_build_object('n', n),"
                + " clock_timestamp(), 1, 1, 'constant', 10, 10, 0, 'java.io.IOException',"
                + " 'upstream down', clock_timestamp() - interval '1 minute'"
                + " FROM generate_series(1, "
                + JOBS
                + ") AS n"));
    Map<Long, AtomicInteger> runs = new ConcurrentHashMap<>();
    List<TaskQ> workers = new ArrayList<>();
    try {
      for (int i = 0; i < WORKERS; i++) {
        TaskQ worker = db.taskq(db.config().workerConcurrency(4).claimBatchSize(8));
        worker.register(
            Actor.rawJson(
                "fixed",
                (json, ctx) -> {
                  runs.computeIfAbsent(ctx.jobId(), id -> new AtomicInteger()).incrementAndGet();
                  return null;
                }));
        worker.start();
        workers.add(worker);
      }
      Operations ops = workers.get(0).operations();
      JobFilter filter = JobFilter.builder().errorClasses("java.io.IOException").build();
      AtomicInteger batches = new AtomicInteger();
      assertThatThrownBy(
              () ->
                  ops.retryWhere(
                      filter,
                      progress -> {
                        if (batches.incrementAndGet() == 20) {
                          throw new IllegalStateException("operator pressed ^C");
                        }
                      }))
          .hasMessageContaining("^C");
      long firstRun = db.count("job_events WHERE kind = 'manually_retried'");
      assertThat(firstRun).isEqualTo(20L * 100);
      RetryWhereResult rest = ops.retryWhere(filter);
      assertThat(rest.retried()).isEqualTo(JOBS - firstRun);
      assertThat(db.count("job_events WHERE kind = 'manually_retried'")).isEqualTo(JOBS);
      await()
          .atMost(Duration.ofMinutes(2))
          .until(() -> db.count("jobs WHERE status = 'succeeded'") == JOBS);
    } finally {
      for (TaskQ worker : workers) {
        worker.close();
      }
    }
    assertThat(runs).hasSize(JOBS);
    assertThat(runs.values()).allSatisfy(n -> assertThat(n.get()).isEqualTo(1));
    assertThat(db.count("job_attempt_history WHERE outcome = 'succeeded'")).isEqualTo(JOBS);
    assertThat(db.count("jobs WHERE attempt = 2 AND max_attempts = 2")).isEqualTo(JOBS);
  }
}
