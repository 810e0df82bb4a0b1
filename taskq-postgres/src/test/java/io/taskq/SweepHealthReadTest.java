package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.taskq.operations.LeaderInfo;
import io.taskq.operations.SweepHealth;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A process that is not the leader reads the leader's sweep health through the operations API (A8,
 * W1): every catalog sweep, written by the lock holder, current; then "no leader" once the leader
 * is gone, the rows kept with their age.
 */
@TaskQTest
@Tag("A8")
@Tag("W1")
class SweepHealthReadTest {
  @BeforeAll
  static void migrate(TestServices services) {
    TestDb.of(services).migrate();
  }

  @Test
  void aNonLeader_readsEverySweepTheLeaderWrote_andSeesNoLeaderOnceItIsGone(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    db.execute(db.sql("DELETE FROM {schema}.sweep_health"));
    try (TaskQ reader = db.taskq()) {
      assertThat(reader.operations().sweepHealth().sweeps()).isEmpty();
      try (TaskQ leader = db.maintainingTaskq(db.config().sweepInterval(Duration.ofMillis(300)))) {
        leader.register(Actor.rawJson("health-idle", (json, ctx) -> null));
        leader.start();
        await()
            .atMost(Duration.ofSeconds(20))
            .until(() -> reader.operations().sweepHealth().sweeps().size() == 11);

        SweepHealth health = reader.operations().sweepHealth();
        assertThat(reader.isLeader()).isFalse();
        LeaderInfo lock = health.leader();
        assertThat(lock).isNotNull();
        assertThat(health.degraded()).isFalse();
        for (SweepHealth.Sweep s : health.sweeps()) {
          assertThat(s.writtenByPid()).as(s.name()).isEqualTo(lock.pid());
          assertThat(s.freshness()).as(s.name()).isEqualTo(SweepHealth.Freshness.CURRENT);
          assertThat(s.writtenAge()).as(s.name()).isLessThan(Duration.ofSeconds(15));
        }
        SweepHealth.Sweep s3 =
            health.sweeps().stream()
                .filter(s -> s.name().equals("scheduled_to_pending"))
                .findFirst()
                .orElseThrow();
        assertThat(s3.id()).isEqualTo("S3");
        assertThat(s3.tier()).isEqualTo(SweepHealth.BreakerTier.FULL);
        assertThat(s3.loopPeriod()).isEqualTo(Duration.ofSeconds(1));
        assertThat(s3.lastSuccess()).isNotNull();
        assertThat(
                health.sweeps().stream()
                    .filter(s -> s.name().equals("sweep_expired_results"))
                    .findFirst()
                    .orElseThrow())
            .satisfies(
                s -> {
                  assertThat(s.tier()).isEqualTo(SweepHealth.BreakerTier.FIXED);
                  assertThat(s.loopPeriod()).isEqualTo(Duration.ofMillis(300));
                });
      }
      SweepHealth after = reader.operations().sweepHealth();
      assertThat(after.leader()).isNull();
      assertThat(after.sweeps()).hasSize(11);
      assertThat(after.sweeps())
          .allSatisfy(s -> assertThat(s.freshness()).isEqualTo(SweepHealth.Freshness.NO_LEADER));
    }
  }

  @Test
  void freshness_judgesTheWriterAndTheRowsAge() {
    LeaderInfo leader = new LeaderInfo(42, "", null, null);
    Duration loop = Duration.ofSeconds(30);
    assertThat(SweepHealth.Sweep.freshness(null, 42, loop, Duration.ZERO))
        .isEqualTo(SweepHealth.Freshness.NO_LEADER);
    assertThat(SweepHealth.Sweep.freshness(leader, 41, loop, Duration.ZERO))
        .isEqualTo(SweepHealth.Freshness.FORMER_LEADER);
    assertThat(SweepHealth.Sweep.freshness(leader, 42, loop, Duration.ofSeconds(100)))
        .isEqualTo(SweepHealth.Freshness.CURRENT);
    assertThat(SweepHealth.Sweep.freshness(leader, 42, loop, Duration.ofSeconds(101)))
        .isEqualTo(SweepHealth.Freshness.STALE);
  }
}
