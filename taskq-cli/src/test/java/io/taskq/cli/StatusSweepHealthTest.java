package io.taskq.cli;

import static io.taskq.cli.TaskQCliTest.cli;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.taskq.Actor;
import io.taskq.TaskQ;
import io.taskq.TaskQConfig;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A8: {@code taskq status} shows the sweep health the leader wrote, from the CLI's own process
 * (never the leader): a table and {@code --json}, then "no leader" once the leader is gone.
 */
@TaskQTest
@Tag("A8")
class StatusSweepHealthTest {
  @Test
  void status_showsEverySweepTheLeaderWrote_andNoLeaderOnceItIsGone(TestServices s)
      throws Exception {
    assertThat(cli(s, "migrate").code()).isZero();
    assertThat(cli(s, "status").out()).contains("sweeps:   none written");
    TaskQConfig config =
        TaskQConfig.builder().schemaName(s.schema()).sweepInterval(Duration.ofMillis(300)).build();
    try (TaskQ leader = TaskQ.builder(s.dataSource()).config(config).migrate(false).build()) {
      leader.register(Actor.rawJson("cli-idle", (json, ctx) -> null));
      leader.start();
      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> cli(s, "status", "--json").out().contains("\"scheduled_to_pending\""));
      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> cli(s, "status", "--json").out().contains("\"name\":\"archive_expiry\""));

      TaskQCliTest.Run table = cli(s, "status");
      assertThat(table.code()).as(table.err()).isZero();
      assertThat(table.out())
          .contains("sweeps:   healthy, written by ")
          .contains("SWEEP", "LAST SUCCESS", "TIER", "STALLED", "WRITTEN")
          .containsPattern("reclaim_expired_locks +S1 +\\S+ ago +- +full ")
          .containsPattern("sweep_expired_results +S5 .* fixed ");

      String json = cli(s, "status", "--json").out();
      assertThat(json)
          .contains("\"sweep_health\":{\"degraded\":false,\"leader_present\":true")
          .contains("\"name\":\"reclaim_expired_locks\",\"id\":\"S1\",\"freshness\":\"current\"")
          .contains("\"breaker_tier\":\"full\"")
          .contains("\"loop_period_ms\":1000")
          .contains("\"feed_lag\":");
    }
    TaskQCliTest.Run after = cli(s, "status");
    assertThat(after.out())
        .contains("no leader now: nothing sweeps this schema")
        .contains("(no leader)");
    assertThat(cli(s, "status", "--json").out())
        .contains("\"leader_present\":false")
        .contains("\"freshness\":\"no_leader\"");
  }
}
