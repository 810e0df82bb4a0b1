package io.taskq.dashboard.internal;

import io.taskq.cron.ScheduleInfo;
import io.taskq.dashboard.DashboardResponse;
import io.taskq.feed.ReclaimFeedLag;
import java.util.List;
import java.util.Map;

/**
 * {@code /}: the overview (W1). Every figure comes from a bounded, index-backed read of the public
 * API: the pending backlog per queue ({@code TaskQ.queueBacklog()}), the schema's maintenance
 * leader and its sweep health as the leader last wrote it ({@code Operations.sweepHealth()}: a
 * handful of rows and one {@code pg_locks} lookup, the same from any process), the reclaim feed's
 * lag and the schedules. No {@code count(*)} over the jobs table.
 */
final class OverviewPage {
  private final Context ctx;
  private final ThroughputChart chart;

  OverviewPage(Context ctx, ThroughputChart chart) {
    this.ctx = ctx;
    this.chart = chart;
  }

  DashboardResponse get(Visit visit) {
    Map<String, Object> scope = ctx.scope(visit, "overview", "Overview");
    Snapshot<List<io.taskq.operations.QueueInfo>> queues = ctx.inventory().queues();
    scope.put("queues", QueuesPage.rows(queues.value(), ctx.inventory().paused()));
    scope.put("countsAt", Format.instant(queues.readAt()));
    scope.put("running", ctx.taskq().isRunning());
    new MaintenanceTile(ctx).put(scope);
    scope.put("feed", feed());
    scope.put("chart", chart.scope());
    List<ScheduleInfo> schedules = ctx.taskq().schedules().list();
    scope.put("scheduleCount", schedules.size());
    scope.put(
        "failingSchedules", schedules.stream().filter(s -> s.consecutiveFailures() > 0).count());
    return ctx.page("overview", scope);
  }

  private Map<String, Object> feed() {
    try {
      ReclaimFeedLag lag = ctx.taskq().reclaimEvents().lag();
      return Map.of(
          "heldBack", Format.count(lag.heldBackEvents()),
          "age", Format.age(lag.oldestHeldBackEventAge()));
    } catch (RuntimeException e) {
      return Map.of("unavailable", true);
    }
  }
}
