package io.taskq.dashboard.internal;

import io.taskq.cron.ScheduleInfo;
import io.taskq.dashboard.DashboardResponse;
import io.taskq.feed.ReclaimFeedLag;
import io.taskq.operations.LeaderInfo;
import io.taskq.operations.SweepHealth;
import io.taskq.spi.MaintenanceHealth;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

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
    Inventory.Snapshot<List<io.taskq.operations.QueueInfo>> queues = ctx.inventory().queues();
    scope.put("queues", QueuesPage.rows(queues.value(), ctx.inventory().paused()));
    scope.put("countsAt", Format.instant(queues.readAt()));
    scope.put("running", ctx.taskq().isRunning());
    putMaintenance(scope);
    scope.put("feed", feed());
    scope.put("chart", chart.scope());
    List<ScheduleInfo> schedules = ctx.taskq().schedules().list();
    scope.put("scheduleCount", schedules.size());
    scope.put(
        "failingSchedules", schedules.stream().filter(s -> s.consecutiveFailures() > 0).count());
    return ctx.page("overview", scope);
  }

  /**
   * The leader tile, the sweeps tile and table: from the {@code sweep_health} rows the leader
   * wrote, so a dashboard that is not the leader shows them too. When the table cannot be read,
   * this process's own view ({@code TaskQ.health()}) stands in and the page says so.
   */
  private void putMaintenance(Map<String, Object> scope) {
    boolean thisProcess = ctx.taskq().isLeader();
    SweepHealth health;
    try {
      health = ctx.taskq().operations().sweepHealth();
    } catch (RuntimeException e) {
      putOwnView(scope, thisProcess);
      return;
    }
    LeaderInfo leader = health.leader();
    scope.put("leader", leaderText(leader, thisProcess));
    scope.put("noLeader", leader == null);
    MaintenanceHealth.Report own = ctx.taskq().health();
    boolean degraded = health.degraded() || (thisProcess && own.degraded());
    scope.put("degraded", degraded);
    List<String> reasons = new ArrayList<>();
    for (SweepHealth.Sweep s : health.sweeps()) {
      if (s.stallReason() != null) {
        reasons.add(s.stallReason());
      }
    }
    if (thisProcess) {
      own.reasons().stream().filter(r -> !reasons.contains(r)).forEach(reasons::add);
    }
    if (leader == null) {
      reasons.add(0, "no maintenance leader: no process sweeps this schema now");
    }
    scope.put("reasons", reasons);
    scope.put("hasReasons", !reasons.isEmpty());
    List<Map<String, Object>> rows = new ArrayList<>();
    Duration newest = null;
    for (SweepHealth.Sweep s : health.sweeps()) {
      rows.add(row(health, s));
      newest = newest == null || s.writtenAge().compareTo(newest) < 0 ? s.writtenAge() : newest;
    }
    scope.put("sweeps", rows);
    scope.put("sweepsSource", "table");
    scope.put(
        "sweepsWritten",
        newest == null
            ? ""
            : "Written by "
                + health.sweeps().get(0).writtenBy()
                + ", "
                + Format.age(newest)
                + " ago (read at "
                + Format.instant(health.readAt())
                + ").");
  }

  private static String leaderText(@Nullable LeaderInfo leader, boolean thisProcess) {
    if (thisProcess) {
      return "this process";
    }
    if (leader == null) {
      return "none";
    }
    return "pid "
        + leader.pid()
        + (leader.clientAddress() == null ? "" : " at " + leader.clientAddress())
        + (leader.applicationName().isEmpty() ? "" : " (" + shortName(leader) + ")");
  }

  /** The leader's {@code application_name}, cut to fit the tile. */
  private static String shortName(LeaderInfo leader) {
    String name = leader.applicationName();
    return name.length() <= 20 ? name : name.substring(0, 19) + "…";
  }

  private static Map<String, Object> row(SweepHealth health, SweepHealth.Sweep s) {
    Map<String, Object> row = new HashMap<>();
    row.put("name", s.name());
    row.put("id", s.id() == null ? "" : s.id());
    row.put("lastSuccess", s.lastSuccess() == null ? "never" : ago(health, s.lastSuccess()));
    row.put(
        "lastError",
        s.lastErrorAt() == null
            ? ""
            : s.lastErrorClass()
                + " "
                + ago(health, s.lastErrorAt())
                + ": "
                + s.lastErrorMessage());
    row.put("tier", s.tier().name().toLowerCase(Locale.ROOT));
    row.put("reduced", s.tier() == SweepHealth.BreakerTier.REDUCED);
    row.put("batch", s.batchSize() + " / " + s.batchSizeConfigured());
    row.put("failures", s.consecutiveFailures());
    row.put("stall", s.stallReason() == null ? "" : s.stallReason());
    row.put("stalled", s.stalled());
    row.put("written", Format.age(s.writtenAge()) + " ago");
    row.put("freshness", freshness(s.freshness()));
    row.put("untrusted", s.freshness() != SweepHealth.Freshness.CURRENT);
    return row;
  }

  private static String freshness(SweepHealth.Freshness f) {
    return switch (f) {
      case CURRENT -> "current";
      case STALE -> "stale";
      case FORMER_LEADER -> "former leader";
      case NO_LEADER -> "no leader";
    };
  }

  private static String ago(SweepHealth health, Instant at) {
    Duration age = Duration.between(at, health.readAt());
    return Format.age(age.isNegative() ? Duration.ZERO : age) + " ago";
  }

  /** The table could not be read: this process's own view, said to be only that. */
  private void putOwnView(Map<String, Object> scope, boolean thisProcess) {
    MaintenanceHealth.Report health = ctx.taskq().health();
    scope.put("leader", thisProcess ? "this process" : "unknown (the database did not answer)");
    scope.put("noLeader", false);
    scope.put("degraded", health.degraded());
    scope.put("reasons", health.reasons());
    scope.put("hasReasons", !health.reasons().isEmpty());
    List<Map<String, Object>> rows = new ArrayList<>();
    for (MaintenanceHealth.SweepState s : health.sweeps()) {
      MaintenanceHealth.BatchSize size = s.batchSize();
      String stall = s.stallReason();
      Map<String, Object> row = new HashMap<>();
      row.put("name", s.name());
      row.put("id", "");
      row.put("lastSuccess", s.lastSuccess() == null ? "never" : Format.instant(s.lastSuccess()));
      row.put("lastError", "");
      row.put("tier", size == null ? "-" : size.isReduced() ? "reduced" : "full");
      row.put("reduced", size != null && size.isReduced());
      row.put("batch", size == null ? "-" : size.used() + " / " + size.configured());
      row.put("failures", "");
      row.put("stall", stall == null ? "" : stall);
      row.put("stalled", stall != null);
      row.put("written", "");
      row.put("freshness", "this process");
      row.put("untrusted", false);
      rows.add(row);
    }
    scope.put("sweeps", rows);
    scope.put("sweepsSource", "process");
    scope.put(
        "sweepsWritten",
        "The sweep health table could not be read just now: this process's own view is shown.");
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
