package io.taskq.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TaskQMetricsTest {
  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final TaskQMetrics metrics = new TaskQMetrics();

  TaskQMetricsTest() {
    metrics.bindTo(registry);
  }

  private Scrape scrape() {
    return new Scrape(registry.scrape());
  }

  @Test
  @org.junit.jupiter.api.Tag("O1")
  void sweepTimeouts_countPerSweepNameInPrometheusForm() {
    metrics.sweepTimeout("reclaim_expired_locks");
    metrics.sweepTimeout("reclaim_expired_locks");
    metrics.sweepTimeout("cron");

    Scrape scrape = scrape();
    assertThat(
            scrape.value(
                "taskq_maintenance_leader_sweep_timeouts_total",
                "sweep_name=\"reclaim_expired_locks\""))
        .isEqualTo(2.0);
    assertThat(scrape.value("taskq_maintenance_leader_sweep_timeouts_total", "sweep_name=\"cron\""))
        .isEqualTo(1.0);
  }

  @Test
  @org.junit.jupiter.api.Tag("O2")
  void batchSizeGauges_areALabelMatchedPairShowingTheReducedTier() {
    metrics.sweepBatchSize("sweep_deadline_exceeded", 25, 100);
    metrics.sweepBatchSize("scheduled_to_pending", 100, 100);

    Scrape scrape = scrape();
    String deadline = "sweep_name=\"sweep_deadline_exceeded\"";
    assertThat(scrape.value("taskq_maintenance_leader_sweep_batch_size", deadline)).isEqualTo(25.0);
    assertThat(scrape.value("taskq_maintenance_leader_sweep_batch_size_configured", deadline))
        .isEqualTo(100.0);
    String promote = "sweep_name=\"scheduled_to_pending\"";
    assertThat(scrape.value("taskq_maintenance_leader_sweep_batch_size", promote)).isEqualTo(100.0);
  }

  @Test
  @org.junit.jupiter.api.Tag("O2")
  void batchSizeGauges_followTheLatestReport() {
    metrics.sweepBatchSize("reclaim_expired_locks", 100, 100);
    metrics.sweepBatchSize("reclaim_expired_locks", 25, 100);

    assertThat(
            scrape()
                .value(
                    "taskq_maintenance_leader_sweep_batch_size",
                    "sweep_name=\"reclaim_expired_locks\""))
        .isEqualTo(25.0);
  }

  @Test
  @org.junit.jupiter.api.Tag("O3")
  void lastSuccess_isTheEpochSecondsOfTheLastCommittedBatch() {
    metrics.sweepSucceeded("reclaim_expired_locks", Instant.ofEpochSecond(1_700_000_000));
    metrics.sweepSucceeded("reclaim_expired_locks", Instant.ofEpochMilli(1_700_000_030_500L));

    assertThat(
            scrape()
                .value(
                    "taskq_maintenance_leader_sweep_last_success_seconds",
                    "sweep_name=\"reclaim_expired_locks\""))
        .isEqualTo(1_700_000_030.5);
  }

  @Test
  @org.junit.jupiter.api.Tag("O3")
  void aSweepThatNeverCommitted_exportsNoLastSuccessAndNoBatchSize() {
    metrics.sweepTimeout("reclaim_expired_locks");

    Set<String> names = scrape().names();
    assertThat(names)
        .doesNotContain(
            "taskq_maintenance_leader_sweep_last_success_seconds",
            "taskq_maintenance_leader_sweep_batch_size");
  }

  @Test
  @org.junit.jupiter.api.Tag("O4")
  void anAbortedBatch_recordsItsDurationButNoRowSample() {
    metrics.sweepRows("reclaim_expired_locks", 100);
    metrics.sweepDuration("reclaim_expired_locks", Duration.ofMillis(80), false);
    metrics.sweepDuration("reclaim_expired_locks", Duration.ofMillis(1750), true);

    Scrape scrape = scrape();
    String sweep = "sweep_name=\"reclaim_expired_locks\"";
    assertThat(scrape.value("taskq_maintenance_leader_sweep_rows_count", sweep)).isEqualTo(1.0);
    assertThat(scrape.value("taskq_maintenance_leader_sweep_rows_sum", sweep)).isEqualTo(100.0);
    assertThat(
            scrape.value(
                "taskq_maintenance_leader_sweep_duration_seconds_count",
                sweep,
                "outcome=\"aborted\""))
        .isEqualTo(1.0);
    assertThat(
            scrape.value(
                "taskq_maintenance_leader_sweep_duration_seconds_sum",
                sweep,
                "outcome=\"aborted\""))
        .isEqualTo(1.75);
    assertThat(
            scrape.value(
                "taskq_maintenance_leader_sweep_duration_seconds_count",
                sweep,
                "outcome=\"committed\""))
        .isEqualTo(1.0);
  }

  @Test
  @org.junit.jupiter.api.Tag("O5")
  void reclaimedJobs_countByActorAndDisposition() {
    metrics.jobsReclaimed("send_email", "repended", 7);
    metrics.jobsReclaimed("send_email", "crashed", 2);
    metrics.jobsReclaimed("send_email", "crashed", 1);
    metrics.jobsReclaimed("resize", "cancelled", 1);

    Scrape scrape = scrape();
    assertThat(
            scrape.value(
                "taskq_jobs_reclaimed_total", "actor=\"send_email\"", "disposition=\"repended\""))
        .isEqualTo(7.0);
    assertThat(
            scrape.value(
                "taskq_jobs_reclaimed_total", "actor=\"send_email\"", "disposition=\"crashed\""))
        .isEqualTo(3.0);
    assertThat(
            scrape.value(
                "taskq_jobs_reclaimed_total", "actor=\"resize\"", "disposition=\"cancelled\""))
        .isEqualTo(1.0);
  }

  @Test
  @org.junit.jupiter.api.Tag("O5")
  void anUnexpectedDisposition_isRecordedAsUnknownSoTheLabelSetStaysBounded() {
    metrics.jobsReclaimed("send_email", "frobnicated", 4);

    Scrape scrape = scrape();
    assertThat(
            scrape.value(
                "taskq_jobs_reclaimed_total", "actor=\"send_email\"", "disposition=\"unknown\""))
        .isEqualTo(4.0);
    assertThat(scrape.toString()).doesNotContain("frobnicated");
  }

  @Test
  @org.junit.jupiter.api.Tag("O6")
  void isLeader_isZeroOnBindingAndFollowsElectionAndDemotion() {
    assertThat(scrape().value("taskq_maintenance_leader_is_leader")).isEqualTo(0.0);

    metrics.leaderChanged(true);
    assertThat(scrape().value("taskq_maintenance_leader_is_leader")).isEqualTo(1.0);

    metrics.leaderChanged(false);
    Scrape scrape = scrape();
    assertThat(scrape.value("taskq_maintenance_leader_is_leader")).isEqualTo(0.0);
    assertThat(scrape.value("taskq_maintenance_leader_leader_changes_total")).isEqualTo(2.0);
  }

  @Test
  @org.junit.jupiter.api.Tag("O6")
  void aRepeatedLeadershipReport_isNotALeaderChange() {
    metrics.leaderChanged(true);
    metrics.leaderChanged(true);

    assertThat(scrape().value("taskq_maintenance_leader_leader_changes_total")).isEqualTo(1.0);
  }

  @Test
  @org.junit.jupiter.api.Tag("O3")
  @org.junit.jupiter.api.Tag("O7")
  void demotion_removesThePerSweepGaugesSoAFollowerCannotLookStalled() {
    metrics.leaderChanged(true);
    metrics.sweepBatchSize("reclaim_expired_locks", 25, 100);
    metrics.sweepSucceeded("reclaim_expired_locks", Instant.ofEpochSecond(1_700_000_000));

    metrics.leaderChanged(false);

    assertThat(scrape().names())
        .doesNotContain(
            "taskq_maintenance_leader_sweep_last_success_seconds",
            "taskq_maintenance_leader_sweep_batch_size",
            "taskq_maintenance_leader_sweep_batch_size_configured");

    metrics.leaderChanged(true);
    metrics.sweepSucceeded("reclaim_expired_locks", Instant.ofEpochSecond(1_700_000_100));
    assertThat(
            scrape()
                .value(
                    "taskq_maintenance_leader_sweep_last_success_seconds",
                    "sweep_name=\"reclaim_expired_locks\""))
        .isEqualTo(1_700_000_100.0);
  }

  @Test
  void lifecycleMeters_countAndTimeByActorAndQueue() {
    metrics.jobsEnqueued("send_email", "default", 3);
    metrics.jobStarted("send_email", "default", Duration.ofMillis(250));
    metrics.jobSucceeded("send_email", "default", Duration.ofSeconds(2));
    metrics.jobStarted("send_email", "default", Duration.ofMillis(750));
    metrics.jobFailed("send_email", "default", Duration.ofSeconds(1));

    Scrape scrape = scrape();
    String[] job = {"actor=\"send_email\"", "queue=\"default\""};
    assertThat(scrape.value("taskq_jobs_enqueued_total", job)).isEqualTo(3.0);
    assertThat(scrape.value("taskq_jobs_started_total", job)).isEqualTo(2.0);
    assertThat(scrape.value("taskq_jobs_succeeded_total", job)).isEqualTo(1.0);
    assertThat(scrape.value("taskq_jobs_failed_total", job)).isEqualTo(1.0);
    assertThat(scrape.value("taskq_jobs_pickup_latency_seconds_sum", job)).isEqualTo(1.0);
    assertThat(
            scrape.value(
                "taskq_jobs_execution_seconds_sum", job[0], job[1], "outcome=\"succeeded\""))
        .isEqualTo(2.0);
    assertThat(
            scrape.value(
                "taskq_jobs_execution_seconds_count", job[0], job[1], "outcome=\"failed\""))
        .isEqualTo(1.0);
  }

  @Test
  void eventFeedLag_isAGaugeInSeconds() {
    metrics.eventFeedLag(Duration.ofMillis(4500));

    assertThat(scrape().value("taskq_events_feed_lag_seconds")).isEqualTo(4.5);
  }

  @Test
  void everyTag_isOneOfTheBoundedLabels() {
    Signals.driveEverySignal(metrics, registry);

    // kind/name: a paused target or a concurrency cap (queue, actor, or '*' for every key).
    Set<String> allowed =
        Set.of("actor", "queue", "sweep_name", "disposition", "outcome", "kind", "name");
    for (Meter meter : registry.getMeters()) {
      List<Tag> tags = meter.getId().getTags();
      assertThat(tags).extracting(Tag::getKey).allMatch(allowed::contains, "a bounded label");
    }
  }

  @Test
  void signalsBeforeBinding_registerTheirGaugesOnBinding() {
    TaskQMetrics late = new TaskQMetrics();
    late.sweepBatchSize("reclaim_expired_locks", 25, 100);
    SimpleMeterRegistry simple = new SimpleMeterRegistry();

    late.bindTo(simple);

    assertThat(
            simple
                .get("taskq.maintenance_leader.sweep_batch_size")
                .tag("sweep_name", "reclaim_expired_locks")
                .gauge()
                .value())
        .isEqualTo(25.0);
  }

  @Test
  void bindingTwice_isRefusedWithAClearError() {
    assertThatThrownBy(() -> metrics.bindTo(new SimpleMeterRegistry()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("already bound");
  }

  @Test
  void aSamplerBeforeBinding_isRefused() {
    assertThatThrownBy(() -> new TaskQMetrics().queueSampler("queue_depth", List::of))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("bind TaskQMetrics");
  }
}
