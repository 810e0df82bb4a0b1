package io.taskq.dashboard.internal;

import io.taskq.cron.ScheduleInfo;
import io.taskq.dashboard.DashboardResponse;
import io.taskq.feed.ReclaimFeedLag;
import io.taskq.spi.MaintenanceHealth;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code /}: the overview (W1). Every figure comes from a bounded, index-backed read of the public
 * API: the pending backlog per queue ({@code TaskQ.queueBacklog()}), the maintenance view of this
 * process ({@code TaskQ.health()}: leadership, each sweep's last success and batch tier), the
 * reclaim feed's lag and the schedules. No {@code count(*)} over the jobs table.
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
    Inventory.Snapshot<List<io.taskq.operations.QueueInfo>> queues = ctx.inventory().queues();
    scope.put("queues", QueuesPage.rows(queues.value(), ctx.inventory().paused()));
    scope.put("countsAt", Format.instant(queues.readAt()));
    scope.put("leader", ctx.taskq().isLeader());
    scope.put("running", ctx.taskq().isRunning());
    MaintenanceHealth.Report health = ctx.taskq().health();
    scope.put("degraded", health.degraded());
    scope.put("reasons", health.reasons());
    scope.put("hasReasons", !health.reasons().isEmpty());
    scope.put("sweeps", sweeps(health));
    scope.put("feed", feed());
    scope.put("chart", chart.scope());
    List<ScheduleInfo> schedules = ctx.taskq().schedules().list();
    scope.put("scheduleCount", schedules.size());
    scope.put(
        "failingSchedules", schedules.stream().filter(s -> s.consecutiveFailures() > 0).count());
    return ctx.page("overview", scope);
  }

  private static List<Map<String, Object>> sweeps(MaintenanceHealth.Report health) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (MaintenanceHealth.SweepState s : health.sweeps()) {
      MaintenanceHealth.BatchSize size = s.batchSize();
      String stall = s.stallReason();
      rows.add(
          Map.of(
              "name", s.name(),
              "lastSuccess", s.lastSuccess() == null ? "never" : Format.instant(s.lastSuccess()),
              "tier", size == null ? "-" : size.isReduced() ? "reduced" : "full",
              "batch", size == null ? "-" : size.used() + " / " + size.configured(),
              "stall", stall == null ? "" : stall));
    }
    return rows;
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
