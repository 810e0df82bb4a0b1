package io.taskq.postgres.internal.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskq.Actor;
import io.taskq.SchemaName;
import io.taskq.TaskQConfig;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class WorkerSettingsTest {
  private static WorkerSettings with(int concurrency, Duration lease, Duration heartbeat) {
    return new WorkerSettings(
        SchemaName.of("taskq"),
        concurrency,
        List.of("default"),
        10,
        lease,
        heartbeat,
        Duration.ofSeconds(1),
        Duration.ofSeconds(30),
        Duration.ofDays(1),
        Duration.ofHours(1),
        Duration.ofMillis(2),
        500,
        Duration.ofMillis(2));
  }

  @Test
  void config_mapsOntoTheWorkerAndServesTheActorsQueues() {
    TaskQConfig config =
        TaskQConfig.builder().schemaName("s").workerConcurrency(3).workerQueues("x").build();
    WorkerSettings settings =
        WorkerSettings.of(
            config,
            List.of(
                Actor.builder("a", io.taskq.PayloadCodec.rawJson(), (p, c) -> null)
                    .queue("mail")
                    .build()));
    assertThat(settings.queues()).containsExactly("mail", "x");
    assertThat(settings.concurrency()).isEqualTo(3);
    assertThat(settings.schema()).isEqualTo(SchemaName.of("s"));
    assertThat(settings.leasePeriod()).isEqualTo(config.leasePeriod());
  }

  @Test
  void outOfRangeValues_areRefusedNamingTheKnob() {
    assertThatThrownBy(() -> with(0, Duration.ofSeconds(30), Duration.ofSeconds(5)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("concurrency must be in [1, 10000], was 0");
    assertThatThrownBy(() -> with(1, Duration.ofSeconds(30), Duration.ofSeconds(30)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("heartbeatInterval must be in [PT0.01S, PT29.999S], was PT30S");
  }

  @Test
  void workerIds_fitTheChannelRules() {
    String id = WorkerId.random();
    assertThat(id).matches("[a-z0-9]{16}");
    assertThat(WorkerId.random()).isNotEqualTo(id);
  }
}
