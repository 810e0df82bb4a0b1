package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.taskq.operations.Operations;
import io.taskq.operations.PauseTarget;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A4 acceptance: a paused queue stays paused under load. Three workers serve queues {@code q} and
 * {@code other}; {@code q} is paused after they started (so the pause reaches them through the wake
 * channel and their poll), then 10 s of enqueues go to both queues: not one job of {@code q} is
 * claimed while {@code other}'s run. After the resume every job of {@code q} runs. The poll
 * interval is 30 s, so only the notification can explain the resume taking effect at once.
 */
@TaskQTest(poolSize = 12)
@Tag("A4")
class PauseUnderLoadTest {
  @Test
  void pausedQueue_getsZeroClaimsForTenSecondsOfEnqueues_thenResumeRunsThemAll(
      TestServices services) throws Exception {
    TestDb db = TestDb.of(services).migrate();
    AtomicInteger pausedRuns = new AtomicInteger();
    AtomicInteger otherRuns = new AtomicInteger();
    List<TaskQ> workers = new ArrayList<>();
    try (TaskQ producer = db.taskq()) {
      for (int i = 0; i < 3; i++) {
        TaskQ worker =
            db.taskq(db.config().workerQueues("q", "other").pollInterval(Duration.ofSeconds(30)));
        worker.register(
            Actor.rawJson(
                "work",
                (json, ctx) -> {
                  (json.contains("\"q\"") ? pausedRuns : otherRuns).incrementAndGet();
                  return null;
                }));
        worker.start();
        workers.add(worker);
      }
      Operations ops = producer.operations();
      assertThat(ops.pause(PauseTarget.queue("q"), "test", "incident")).isTrue();
      long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      int enqueued = 0;
      while (System.nanoTime() < until) {
        List<JobRequest> batch = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
          batch.add(JobRequest.builder("work").queue("q").payloadJson("{\"to\": \"q\"}").build());
          batch.add(
              JobRequest.builder("work").queue("other").payloadJson("{\"to\": \"o\"}").build());
        }
        producer.jobs().enqueueAll(batch);
        enqueued += 20;
        Thread.sleep(50);
      }
      int enqueuedQ = enqueued;
      await().atMost(Duration.ofSeconds(30)).until(() -> otherRuns.get() == enqueuedQ);
      assertThat(pausedRuns.get()).isZero();
      assertThat(db.count("jobs WHERE queue = 'q' AND attempt > 0")).isZero();
      assertThat(db.count("jobs WHERE queue = 'q' AND status = 'pending'")).isEqualTo(enqueuedQ);

      assertThat(ops.resume(PauseTarget.queue("q"))).isTrue();
      await().atMost(Duration.ofSeconds(25)).until(() -> pausedRuns.get() == enqueuedQ);
      // A handler's return is counted before its completion is written: wait for the writes.
      await()
          .atMost(Duration.ofSeconds(25))
          .until(() -> db.count("jobs WHERE queue = 'q' AND status = 'succeeded'") == enqueuedQ);
    } finally {
      Collections.reverse(workers);
      for (TaskQ worker : workers) {
        worker.close();
      }
    }
  }
}
