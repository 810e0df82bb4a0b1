package io.taskq.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** Drives every signal the binding records, so a scrape shows every meter it can export. */
public final class Signals {
  private Signals() {}

  public static void driveEverySignal(TaskQMetrics metrics, MeterRegistry registry) {
    metrics.maintenanceStarted(
        java.util.Set.of("reclaim_expired_locks", "cron"), java.util.Set.of("send_email"));
    metrics.leaderChanged(true);
    for (String sweep : List.of("reclaim_expired_locks", "scheduled_to_pending", "cron")) {
      metrics.sweepBatchSize(sweep, 100, 100);
      metrics.sweepRows(sweep, 3);
      metrics.sweepDuration(sweep, Duration.ofMillis(40), false);
      metrics.sweepSucceeded(sweep, Instant.ofEpochSecond(1_700_000_000));
      metrics.sweepDuration(sweep, Duration.ofMillis(1750), true);
      metrics.sweepTimeout(sweep);
    }
    metrics.jobsReclaimed("send_email", "crashed", 1);
    metrics.jobsEnqueued("send_email", "default", 1);
    metrics.jobStarted("send_email", "default", Duration.ofMillis(5));
    metrics.jobSucceeded("send_email", "default", Duration.ofMillis(5));
    metrics.jobFailed("send_email", "default", Duration.ofMillis(5));
    metrics.eventFeedLag(Duration.ofSeconds(1));
    metrics.jobRateLimited("send_email", "default");
    metrics.writeFenced();
    TaskQObservability.backlogSampler(
            () ->
                List.of(
                    java.util.Map.entry(
                        "reclaim_expired_locks", new io.taskq.operations.BoundedCount(7, false))),
            registry)
        .sampleOnce();
    TaskQObservability.actorBacklogSampler(
            () ->
                List.of(
                    new io.taskq.operations.ActorBacklog("send_email", 4, Duration.ofSeconds(9))),
            registry)
        .sampleOnce();
    TaskQObservability.reservationSlotSampler(
            () -> List.of(new io.taskq.operations.ReservationSlots("queue", "default", 1, 3)),
            registry)
        .sampleOnce();
    QueueSampler ok =
        new QueueSampler(
            "queue_depth",
            () -> List.of(new QueueReading("default", 4, Duration.ofSeconds(9))),
            registry);
    ok.sampleOnce();
    QueueSampler failing =
        new QueueSampler(
            "backlog_detection",
            () -> {
              throw new java.sql.SQLTimeoutException(
                  "canceling statement due to statement timeout");
            },
            registry);
    failing.sampleOnce();
    new FeedLagSampler(
            "event_feed_lag",
            () ->
                new io.taskq.feed.ReclaimFeedLag(
                    2, Duration.ofSeconds(40), 4242, Duration.ofSeconds(45)),
            registry)
        .sampleOnce();
  }
}
