package io.taskq.cli;

import io.taskq.operations.SweepHealth;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The sweep health part of {@code taskq status}: each sweep's row as the leader last wrote it, with
 * a one-line verdict that says whether the rows can be trusted (docs/cli.md).
 */
final class SweepHealthView {
  private SweepHealthView() {}

  static Map<String, Object> json(SweepHealth health) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("degraded", health.degraded());
    m.put("leader_present", health.leader() != null);
    m.put("read_at", health.readAt());
    m.put("sweeps", health.sweeps().stream().map(SweepHealthView::json).toList());
    return m;
  }

  private static Map<String, Object> json(SweepHealth.Sweep s) {
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("name", s.name());
    row.put("id", s.id());
    row.put("freshness", s.freshness().name().toLowerCase(Locale.ROOT));
    row.put("written_by", s.writtenBy());
    row.put("written_by_pid", s.writtenByPid());
    row.put("written_at", s.writtenAt());
    row.put("written_age_ms", s.writtenAge());
    row.put("last_run", s.lastRun());
    row.put("last_success", s.lastSuccess());
    row.put("last_error_at", s.lastErrorAt());
    row.put("last_error_class", s.lastErrorClass());
    row.put("last_error_message", s.lastErrorMessage());
    row.put("breaker_tier", s.tier().name().toLowerCase(Locale.ROOT));
    row.put("batch_size", s.batchSize());
    row.put("batch_size_configured", s.batchSizeConfigured());
    row.put("consecutive_failures", s.consecutiveFailures());
    row.put("stalled", s.stalled());
    row.put("stall_reason", s.stallReason());
    row.put("loop_period_ms", s.loopPeriod());
    row.put("expected_period_ms", s.expectedPeriod());
    return row;
  }

  static void print(SweepHealth health, PrintStream out) {
    out.println("sweeps:   " + summary(health));
    if (health.sweeps().isEmpty()) {
      return;
    }
    table(health).print(out);
    for (SweepHealth.Sweep s : health.sweeps()) {
      if (s.stallReason() != null) {
        out.println("  " + s.stallReason());
      }
    }
  }

  private static final String[] COLUMNS = {
    "SWEEP", "ID", "LAST SUCCESS", "LAST ERROR", "TIER", "BATCH", "FAILS", "STALLED", "WRITTEN"
  };

  private static Table table(SweepHealth health) {
    Table t = new Table(COLUMNS);
    for (SweepHealth.Sweep s : health.sweeps()) {
      t.row(
          s.name(),
          s.id() == null ? "-" : s.id(),
          ago(health, s.lastSuccess()),
          s.lastErrorAt() == null ? "-" : s.lastErrorClass() + ", " + ago(health, s.lastErrorAt()),
          s.tier().name().toLowerCase(Locale.ROOT),
          s.batchSize() + "/" + s.batchSizeConfigured(),
          s.consecutiveFailures(),
          s.stalled() ? "yes" : "no",
          AgeText.human(s.writtenAge()) + " ago" + freshness(s.freshness()));
    }
    return t;
  }

  /** One line: healthy or degraded, and whether the rows can be trusted. */
  static String summary(SweepHealth health) {
    if (health.sweeps().isEmpty()) {
      return health.leader() == null
          ? "none written: no leader, and none has written sweep health in this schema yet"
          : "none written yet: the leader writes them after its first sweep tick";
    }
    String verdict = verdict(health);
    if (health.leader() == null) {
      return verdict + " as the last leader left them; no leader now: nothing sweeps this schema";
    }
    long untrusted =
        health.sweeps().stream()
            .filter(s -> s.freshness() != SweepHealth.Freshness.CURRENT)
            .count();
    return untrusted == 0
        ? verdict + ", written by " + health.sweeps().get(0).writtenBy()
        : verdict + "; " + untrusted + " rows are stale or from a former leader";
  }

  private static String verdict(SweepHealth health) {
    long stalled = health.sweeps().stream().filter(SweepHealth.Sweep::stalled).count();
    long reduced =
        health.sweeps().stream().filter(s -> s.tier() == SweepHealth.BreakerTier.REDUCED).count();
    return health.degraded()
        ? "degraded (" + stalled + " stalled, " + reduced + " on the reduced tier)"
        : "healthy";
  }

  private static String freshness(SweepHealth.Freshness f) {
    return switch (f) {
      case CURRENT -> "";
      case STALE -> " (stale)";
      case FORMER_LEADER -> " (former leader)";
      case NO_LEADER -> " (no leader)";
    };
  }

  private static String ago(SweepHealth health, @Nullable Instant at) {
    if (at == null) {
      return "never";
    }
    Duration age = Duration.between(at, health.readAt());
    return AgeText.human(age.isNegative() ? Duration.ZERO : age) + " ago";
  }
}
