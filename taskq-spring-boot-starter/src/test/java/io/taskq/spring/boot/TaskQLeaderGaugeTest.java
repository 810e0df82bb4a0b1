package io.taskq.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import io.taskq.Actor;
import io.taskq.TaskQ;
import io.taskq.metrics.MeterNames;
import io.taskq.metrics.TaskQMetrics;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * R6 / SB5: in a Spring context the {@code is_leader} gauge reads the engine's {@code isLeader()}
 * at every scrape, as outside Spring, so it reports leadership only while the engine proves it: a
 * {@code leaderChanged(true)} signal the engine no longer backs (a lapsed proof whose demotion
 * signal has not come yet) never shows as a leader. Boot's own metrics auto-configuration binds the
 * starter's {@code MeterBinder} beans, on the real PostgreSQL.
 */
@TaskQTest(poolSize = 8)
@Tag("R6")
@Tag("SB5")
class TaskQLeaderGaugeTest {

  private static ApplicationContextRunner withBootMetrics(TestServices services) {
    return Contexts.on(services)
        .withConfiguration(
            AutoConfigurations.of(
                org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration
                    .class,
                org.springframework.boot.micrometer.metrics.autoconfigure
                    .CompositeMeterRegistryAutoConfiguration.class,
                org.springframework.boot.micrometer.metrics.autoconfigure.export.simple
                    .SimpleMetricsExportAutoConfiguration.class))
        .withBean("mailer", Actor.class, () -> Contexts.idle("send-mail"));
  }

  private static double isLeaderGauge(MeterRegistry registry) {
    return registry.get(MeterNames.IS_LEADER).gauge().value();
  }

  @Test
  void aLeaderSignalTheEngineDoesNotBack_neverShowsAsLeader(TestServices services) {
    // Maintenance off: this engine never holds the leadership, whatever a signal says.
    withBootMetrics(services)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              TaskQ taskq = context.getBean(TaskQ.class);
              MeterRegistry registry = context.getBean(MeterRegistry.class);
              assertThat(taskq.isLeader()).isFalse();
              context.getBean(TaskQMetrics.class).leaderChanged(true);
              assertThat(isLeaderGauge(registry))
                  .as("is_leader after a leaderChanged(true) the engine does not prove")
                  .isEqualTo(0.0);
            });
  }

  @Test
  void theGaugeFollowsTheProvenLeadership(TestServices services) {
    withBootMetrics(services)
        .withPropertyValues("taskq.maintenance.enabled=true")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              TaskQ taskq = context.getBean(TaskQ.class);
              MeterRegistry registry = context.getBean(MeterRegistry.class);
              await().atMost(Duration.ofSeconds(30)).until(taskq::isLeader);
              assertThat(isLeaderGauge(registry)).isEqualTo(1.0);
              // A stale demotion signal does not hide a leadership the engine still proves.
              context.getBean(TaskQMetrics.class).leaderChanged(false);
              assertThat(taskq.isLeader()).isTrue();
              assertThat(isLeaderGauge(registry)).isEqualTo(1.0);
            });
  }
}
