package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.taskq.bulk.BatchInfo;
import io.taskq.bulk.BatchRequest;
import io.taskq.bulk.CancelResult;
import io.taskq.bulk.EnqueuedBatch;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Batches end to end (L9): two workers run the members of many batches; each batch's hook runs
 * exactly once, after its last member, with the counts of what its members did.
 */
@TaskQTest(poolSize = 10)
@Tag("L9")
class BatchWorkerTest {
  private static final RetryPolicy ONCE = RetryPolicy.defaults().withMaxAttempts(1);

  @Test
  void twoWorkers_runEveryBatchsHookOnce_withItsMembersOutcomes(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services).migrate();
    JobsClient client = JobsClient.create(db.dataSource, db.schema);
    int batches = 20;
    int members = 10;
    List<EnqueuedBatch> enqueued = new ArrayList<>();
    for (int b = 0; b < batches; b++) {
      List<JobRequest> jobs = new ArrayList<>();
      for (int m = 0; m < members; m++) {
        // Every batch: 7 succeed, 2 fail, 1 is cancelled before it runs.
        String payload = m < 7 ? "{\"ok\": true}" : "{\"ok\": false}";
        JobRequest.Builder job = JobRequest.builder("work").payloadJson(payload).retryPolicy(ONCE);
        jobs.add(m == 9 ? job.delay(Duration.ofHours(1)).build() : job.build());
      }
      enqueued.add(
          client.enqueueBatch(
              BatchRequest.of(jobs)
                  .onComplete(
                      JobRequest.builder("report").payloadJson("{\"b\": " + b + "}").build())));
    }
    for (EnqueuedBatch batch : enqueued) {
      assertThat(client.cancel(batch.jobIds().get(9))).isEqualTo(CancelResult.CANCELLED);
    }
    Map<Long, AtomicInteger> hookRuns = new ConcurrentHashMap<>();
    List<String> hookPayloads = new CopyOnWriteArrayList<>();
    List<TaskQ> workers = new ArrayList<>();
    try {
      for (int i = 0; i < 2; i++) {
        TaskQ taskq = db.taskq(db.config().workerConcurrency(4).claimBatchSize(3));
        workers.add(taskq);
        taskq.register(
            Actor.rawJson(
                "work",
                (json, ctx) -> {
                  if (json.contains("false")) {
                    throw new IllegalStateException("member failed on purpose");
                  }
                  return null;
                }));
        taskq.register(
            Actor.rawJson(
                "report",
                (json, ctx) -> {
                  hookRuns.computeIfAbsent(ctx.jobId(), k -> new AtomicInteger()).incrementAndGet();
                  hookPayloads.add(json);
                  return null;
                }));
        taskq.start();
      }
      db.notifyWake();
      await()
          .atMost(Duration.ofMinutes(1))
          .until(() -> db.count("jobs WHERE actor = 'report' AND status = 'succeeded'") == batches);
    } finally {
      workers.forEach(TaskQ::close);
    }

    assertThat(hookRuns).hasSize(batches);
    assertThat(hookRuns.values()).allSatisfy(n -> assertThat(n.get()).isEqualTo(1));
    for (EnqueuedBatch batch : enqueued) {
      BatchInfo info = client.findBatch(batch.batchId()).orElseThrow();
      assertThat(info.completed()).isTrue();
      assertThat(List.of(info.succeeded(), info.failed(), info.cancelled()))
          .containsExactly(7, 2, 1);
      long hookJob = info.hookJob().orElseThrow();
      assertThat(hookRuns).containsKey(hookJob);
    }
    assertThat(hookPayloads)
        .allSatisfy(
            p ->
                assertThat(p.replace(" ", ""))
                    .contains("\"total\":10")
                    .contains("\"succeeded\":7")
                    .contains("\"failed\":2")
                    .contains("\"cancelled\":1"));
  }
}
