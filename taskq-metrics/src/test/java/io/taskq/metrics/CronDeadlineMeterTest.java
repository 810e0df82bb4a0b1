package io.taskq.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.taskq.TaskQ;
import io.taskq.TaskQConfig;
import io.taskq.cron.Schedule;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * O1: a real cron tick that runs past its own deadline counts on the meter the guide names, {@code
 * taskq.maintenance_leader.sweep_timeouts}, under {@code sweep_name="cron"} (spelt here, not taken
 * from the code, so relabelling the tick breaks this test).
 */
@TaskQTest
@Tag("O1")
class CronDeadlineMeterTest {
  @Test
  void aCronTickPastItsDeadline_countsUnderSweepNameCron(TestServices services) throws Exception {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    TaskQMetrics metrics = new TaskQMetrics();
    metrics.bindTo(registry);
    TaskQConfig config =
        TaskQConfig.builder()
            .schemaName(services.schema())
            .dispatcherCommandTimeout(Duration.ofMillis(400))
            .build();
    try (TaskQ taskq =
        TaskQ.producer(services.dataSource())
            .config(config)
            .maintenance(true)
            .listener(metrics)
            .jobListener(metrics)
            .build()) {
      taskq.migrations().apply();
      String schema = taskq.schema().value();
      try (Connection c = services.dataSource().getConnection();
          Statement s = c.createStatement()) {
        s.execute("TRUNCATE " + schema + ".cron_schedules");
        s.execute(
            "INSERT INTO "
                + schema
                + ".actor_config (actor, queue) VALUES ('o1-cron-actor', 'o1q')"
                + " ON CONFLICT DO NOTHING");
      }
      taskq.registerPayloadFactory(
          "slow",
          fire -> {
            Thread.sleep(1_500);
            return "{}";
          });
      taskq
          .schedules()
          .put(
              Schedule.builder("o1-slow", "o1-cron-actor", "0 0 * * *")
                  .payloadFactory("slow")
                  .build());
      try (Connection c = services.dataSource().getConnection();
          Statement s = c.createStatement()) {
        s.execute(
            "UPDATE " + schema + ".cron_schedules SET next_fire_at = now() - interval '1 second'");
      }

      taskq.start(); // the cron loop starts with maintenance
      await().atMost(Duration.ofSeconds(20)).until(() -> count(registry) >= 1.0);
    }

    Counter cron =
        registry
            .get("taskq.maintenance_leader.sweep_timeouts")
            .tags("sweep_name", "cron")
            .counter();
    assertThat(cron.count()).isGreaterThanOrEqualTo(1.0);
    assertThat(cron.getId().getTags()).hasSize(1);
  }

  private static double count(SimpleMeterRegistry registry) {
    @Nullable Counter c =
        registry
            .find("taskq.maintenance_leader.sweep_timeouts")
            .tags("sweep_name", "cron")
            .counter();
    return c == null ? 0 : c.count();
  }
}
