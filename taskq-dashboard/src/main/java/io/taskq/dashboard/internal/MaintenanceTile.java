package io.taskq.dashboard.internal;

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
 * The overview's maintenance tiles (W1): the leader tile, the sweeps tile and table, from the
 * {@code sweep_health} rows the leader wrote ({@code Operations.sweepHealth()}), so a dashboard
 * that is not the leader shows them too. When the table cannot be read, this process's own view
 * ({@code TaskQ.health()}) stands in and the page says so.
 */
final class MaintenanceTile {
  private final Context ctx;

  MaintenanceTile(Context ctx) {
    this.ctx = ctx;
  }

  /** Puts the tiles' figures into the page's {@code scope}. */
  void put(Map<String, Object> scope) {
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
    List<String> reasons = reasons(health, thisProcess ? own : null);
    scope.put("reasons", reasons);
    scope.put("hasReasons", !reasons.isEmpty());
    scope.put("sweeps", health.sweeps().stream().map(s -> row(health, s)).toList());
    scope.put("sweepsSource", "table");
    scope.put("sweepsWritten", written(health));
  }

  /**
   * The stalled sweeps' reasons, then this process's own ones it does not repeat ({@code own}: it
   * is the leader), after a first line saying so when there is no leader.
   */
  private static List<String> reasons(SweepHealth health, MaintenanceHealth.@Nullable Report own) {
    List<String> reasons = new ArrayList<>();
    for (SweepHealth.Sweep s : health.sweeps()) {
      if (s.stallReason() != null) {
        reasons.add(s.stallReason());
      }
    }
    if (own != null) {
      own.reasons().stream().filter(r -> !reasons.contains(r)).forEach(reasons::add);
    }
    if (health.leader() == null) {
      reasons.add(0, "no maintenance leader: no process sweeps this schema now");
    }
    return reasons;
  }

  /** Who wrote the rows and how long ago the newest was written; empty when there is none. */
  private static String written(SweepHealth health) {
    Duration newest = null;
    for (SweepHealth.Sweep s : health.sweeps()) {
      newest = newest == null || s.writtenAge().compareTo(newest) < 0 ? s.writtenAge() : newest;
    }
    return newest == null
        ? ""
        : "Written by "
            + health.sweeps().get(0).writtenBy()
            + ", "
            + Format.age(newest)
            + " ago (read at "
            + Format.instant(health.readAt())
            + ").";
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
    scope.put("sweeps", health.sweeps().stream().map(MaintenanceTile::ownRow).toList());
    scope.put("sweepsSource", "process");
    scope.put(
        "sweepsWritten",
        "The sweep health table could not be read just now: this process's own view is shown.");
  }

  private static Map<String, Object> ownRow(MaintenanceHealth.SweepState s) {
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
    return row;
  }
}
