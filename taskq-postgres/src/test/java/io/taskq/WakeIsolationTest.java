package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.taskq.postgres.internal.TestHooks;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Two schemas in one database (M2, M6): same actor names, same queue, and yet neither worker ever
 * sees the other's jobs or wake-ups.
 */
@TaskQTest
@Tag("M2")
@Tag("M6")
class WakeIsolationTest {
  private static String other(TestServices services) {
    return services.schema() + "_b";
  }

  @AfterAll
  static void dropOther(TestServices services) throws Exception {
    TestDb.of(services).execute("DROP SCHEMA IF EXISTS \"" + other(services) + "\" CASCADE");
  }

  @Test
  void twoSchemas_neverSeeEachOthersJobsOrWakeUps(TestServices services) throws Exception {
    TestDb a = TestDb.of(services).migrate();
    TestDb b = new TestDb(services.dataSource(), other(services)).migrate();
    AtomicInteger ranInA = new AtomicInteger();
    AtomicInteger ranInB = new AtomicInteger();
    try (TaskQ workerA = a.taskq();
        TaskQ workerB = b.taskq()) {
      workerA.register(Actor.rawJson("shared", (json, ctx) -> ranInA.incrementAndGet()));
      workerB.register(Actor.rawJson("shared", (json, ctx) -> ranInB.incrementAndGet()));
      workerA.start();
      workerB.start();
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  TestHooks.of(workerB).worker().listenerConnects() > 0
                      && TestHooks.of(workerA).worker().listenerConnects() > 0);

      a.enqueue("shared", "default", 50, RetryPolicy.defaults());
      for (int i = 0; i < 5; i++) {
        a.notifyWake();
      }
      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> a.count("jobs WHERE status = 'succeeded'") == 50);
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> TestHooks.of(workerA).worker().wakeNotifications() >= 5);
      assertThat(ranInA).hasValue(50);
      assertThat(ranInB).hasValue(0);
      assertThat(TestHooks.of(workerB).worker().wakeNotifications()).isZero();
      assertThat(b.count("job_attempt_history")).isZero();

      b.enqueue("shared", "default", 7, RetryPolicy.defaults());
      b.notifyWake();
      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> b.count("jobs WHERE status = 'succeeded'") == 7);
      assertThat(ranInB).hasValue(7);
      assertThat(ranInA).hasValue(50);
      assertThat(a.count("workers WHERE id = ?", workerB.workerId())).isZero();
      assertThat(b.count("workers WHERE id = ?", workerA.workerId())).isZero();
    }
  }
}
