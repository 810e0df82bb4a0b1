package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.taskq.spi.MaintenanceHealth;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * R4: the readiness view judges each maintenance loop by its own cadence. With {@code
 * TASKQ_SWEEP_INTERVAL=200ms} the 1-second loop's {@code scheduled_to_pending} succeeds once a
 * second; judged against three sweep intervals (600 ms) it read as stalled in about a third of the
 * samples. A healthy leader is never degraded.
 */
@TaskQTest
@Tag("R4")
@Tag("O7")
class ReadyCadenceTest {
  @BeforeAll
  static void migrate(TestServices services) {
    TestDb.of(services).migrate();
  }

  @Test
  void aHealthyLeaderWithA200msSweepInterval_isNeverDegraded(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    try (TaskQ taskq = db.maintainingTaskq(db.config().sweepInterval(Duration.ofMillis(200)))) {
      taskq.register(Actor.rawJson("r4-idle", (json, ctx) -> null));
      taskq.start();
      await().atMost(Duration.ofSeconds(15)).until(taskq::isLeader);
      await()
          .atMost(Duration.ofSeconds(15))
          .until(
              () ->
                  taskq.health().sweeps().stream()
                      .anyMatch(
                          s -> s.name().equals("scheduled_to_pending") && s.lastSuccess() != null));
      // 80 samples 75 ms apart: 6 s, six runs of the 1-second loop, thirty of the sweep loop.
      List<String> degraded = new ArrayList<>();
      int samples = 80;
      for (int i = 0; i < samples; i++) {
        MaintenanceHealth.Report report = taskq.health();
        if (report.degraded()) {
          degraded.add(String.join("; ", report.reasons()));
        }
        Thread.sleep(75);
      }
      assertThat(degraded).as("degraded samples of %d on a healthy leader", samples).isEmpty();
    }
  }
}
