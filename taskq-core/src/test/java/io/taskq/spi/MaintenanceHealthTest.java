package io.taskq.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Every arm of the readiness view (O7), on an injected clock. */
@Tag("O7")
class MaintenanceHealthTest {
  private static final Duration INTERVAL = Duration.ofSeconds(30);

  private final AtomicReference<Instant> now =
      new AtomicReference<>(Instant.parse("2030-01-01T00:00:00Z"));
  private final MaintenanceHealth health = new MaintenanceHealth(INTERVAL, now::get);

  private void advance(Duration d) {
    now.set(now.get().plus(d));
  }

  @Test
  void aProcessThatNeverCompletedASweep_isNotDegraded_andSaysSo() {
    MaintenanceHealth.Report report = health.report();

    assertThat(report.degraded()).isFalse();
    assertThat(report.reasons()).containsExactly("no sweep has completed yet");
    assertThat(report.toJson())
        .isEqualTo(
            "{\"degraded\":false,\"reasons\":[\"no sweep has completed yet\"],\"sweeps\":{}}");
  }

  @Test
  void recentSuccesses_readHealthy_withNoReasons() {
    health.sweepBatchSize("reclaim_expired_locks", 100, 100);
    health.sweepSucceeded("reclaim_expired_locks", now.get());
    advance(INTERVAL.multipliedBy(3));

    MaintenanceHealth.Report report = health.report();

    assertThat(report.degraded()).isFalse();
    assertThat(report.reasons()).isEmpty();
    assertThat(report.toJson())
        .isEqualTo(
            "{\"degraded\":false,\"reasons\":[],\"sweeps\":{\"reclaim_expired_locks\":"
                + "{\"last_success\":\"2030-01-01T00:00:00Z\",\"batch_size\":100,"
                + "\"batch_size_configured\":100}}}");
  }

  @Test
  @Tag("O3")
  void aSuccessOlderThanThreeIntervals_degrades_namingTheSweep() {
    health.sweepSucceeded("reclaim_expired_locks", now.get());
    health.sweepSucceeded("sweep_deadline_exceeded", now.get().plus(Duration.ofSeconds(60)));
    advance(Duration.ofSeconds(91));

    MaintenanceHealth.Report report = health.report();

    assertThat(report.degraded()).isTrue();
    assertThat(report.reasons())
        .containsExactly(
            "sweep reclaim_expired_locks last succeeded 91s ago, more than 3 periods of 30s");
  }

  @Test
  @Tag("R4")
  void aSweepIsJudgedByItsLoopsCycle_periodPlusItsLongestRecentTick() {
    health.loopTicked(java.util.List.of("reclaim_expired_locks"), Duration.ofSeconds(10));
    health.loopTicked(java.util.List.of("reclaim_expired_locks"), Duration.ofSeconds(2));
    health.sweepSucceeded("reclaim_expired_locks", now.get());
    advance(Duration.ofMinutes(2));
    assertThat(health.report().degraded()).as("3 x (30 s + 10 s) not passed yet").isFalse();

    advance(Duration.ofSeconds(1));
    assertThat(health.report().reasons())
        .containsExactly(
            "sweep reclaim_expired_locks last succeeded 121s ago, more than 3 periods of 30s"
                + " (each plus its loop's 10s tick)");
  }

  @Test
  @Tag("R4")
  void theLongestTickIsTakenFromTheLastEightOnly() {
    health.loopTicked(java.util.List.of("prune"), Duration.ofSeconds(50));
    for (int i = 0; i < MaintenanceHealth.TICKS_REMEMBERED; i++) {
      health.loopTicked(java.util.List.of("prune"), Duration.ofSeconds(1));
    }
    health.sweepSucceeded("prune", now.get());
    advance(Duration.ofSeconds(94));
    assertThat(health.report().degraded()).isTrue();
    assertThatThrownBy(() -> health.loopTicked(java.util.List.of("prune"), Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("took");
  }

  @Test
  void aSweepThatRunsBatchesButNeverCommitsOne_degradesAfterThreeIntervals() {
    health.sweepBatchSize("scheduled_to_pending", 100, 100);
    advance(Duration.ofSeconds(90));
    assertThat(health.report().degraded()).isFalse();

    advance(Duration.ofMillis(1500));

    assertThat(health.report().reasons())
        .containsExactly(
            "sweep scheduled_to_pending has not committed a batch in the 91.500s since its"
                + " first, more than 3 periods of 30s");
  }

  @Test
  @Tag("T2")
  @Tag("O2")
  void aSweepOnTheReducedTier_degrades_evenWhenFresh() {
    health.sweepSucceeded("reclaim_expired_locks", now.get());
    health.sweepBatchSize("reclaim_expired_locks", 25, 100);

    MaintenanceHealth.Report report = health.report();

    assertThat(report.degraded()).isTrue();
    assertThat(report.reasons()).singleElement().asString().contains("reduced tier", "25 of 100");
  }

  @Test
  void aDailySweep_isStalledOnlyAfterThreeOfItsOwnPeriods() {
    health.expectPeriod("prune", Duration.ofDays(1));
    health.sweepSucceeded("prune", now.get());
    advance(Duration.ofDays(2));
    assertThat(health.report().degraded()).isFalse();

    advance(Duration.ofDays(1).plusSeconds(1));
    assertThat(health.report().degraded()).isTrue();
  }

  @Test
  @Tag("O6")
  void demotion_clearsEveryStamp() {
    health.sweepBatchSize("reclaim_expired_locks", 25, 100);
    health.sweepSucceeded("reclaim_expired_locks", now.get());
    advance(Duration.ofHours(1));
    assertThat(health.report().degraded()).isTrue();

    health.leaderChanged(true);
    assertThat(health.report().degraded()).isTrue();
    health.leaderChanged(false);

    assertThat(health.report().degraded()).isFalse();
    assertThat(health.report().reasons()).containsExactly(MaintenanceHealth.NO_SWEEP_YET);
    assertThat(health.report().sweeps()).isEmpty();
  }

  @Test
  void theJson_escapesQuotesBackslashesAndControlCharacters() {
    MaintenanceHealth.Report report =
        new MaintenanceHealth.Report(
            true, java.util.List.of("a \"b\" \\ c\n\t\u0001\u2028"), java.util.List.of());

    assertThat(report.toJson())
        .isEqualTo(
            "{\"degraded\":true,\"reasons\":[\"a \\\"b\\\" \\\\ c\\n\\t\\u0001\\u2028\"],"
                + "\"sweeps\":{}}");
  }

  @Test
  void aNonPositiveInterval_isRefused_namingIt() {
    assertThatThrownBy(() -> new MaintenanceHealth(Duration.ZERO, now::get))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sweepInterval")
        .hasMessageContaining("PT0S");
    assertThatThrownBy(() -> health.expectPeriod("prune", Duration.ofSeconds(-1)))
        .hasMessageContaining("period");
  }

  @Test
  void theListenerDefaults_acceptEverySignalWithoutFailing() {
    MaintenanceListener none = MaintenanceListener.NONE;
    none.sweepRows("s", 1);
    none.sweepDuration("s", Duration.ZERO, true);
    none.sweepTimeout("s");
    none.sweepBatchSize("s", 1, 1);
    none.sweepSucceeded("s", Instant.EPOCH);
    none.leaderChanged(true);
    none.jobsReclaimed("a", "repended", 1);
    assertThat(none).isNotNull();
  }
}
