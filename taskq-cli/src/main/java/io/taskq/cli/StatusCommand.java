package io.taskq.cli;

import io.taskq.JobStatus;
import io.taskq.feed.ReclaimFeedLag;
import io.taskq.operations.LeaderInfo;
import io.taskq.operations.Operations;
import io.taskq.operations.Pause;
import io.taskq.operations.QueueInfo;
import io.taskq.operations.SweepHealth;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;

/** {@code taskq status}: the schema at a glance. */
@Command(
    name = "status",
    mixinStandardHelpOptions = true,
    description = {
      "Per queue: pending depth, scheduled, running, failures in the last hour, age of the oldest"
          + " due job, paused. Then the paused queues and actors, the schema's maintenance leader,"
          + " the crash-reclaim feed's lag, and each sweep's health as the leader last wrote it:"
          + " last success, last error, breaker tier, batch size, consecutive failures, stall,"
          + " and how fresh the row is (current, stale, former leader, no leader)."
    })
final class StatusCommand extends BaseCommand {
  StatusCommand(Session session) {
    super(session);
  }

  @Override
  int run() {
    Operations ops = ops();
    List<QueueInfo> queues = ops.queues();
    Map<String, Long> failures = ops.failuresSince(Instant.now().minus(Duration.ofHours(1)));
    List<Pause> paused = ops.paused();
    Optional<LeaderInfo> leader = ops.leader();
    ReclaimFeedLag lag = taskq().reclaimEvents().lag();
    SweepHealth sweeps = ops.sweepHealth();
    if (json()) {
      Map<String, Object> m = json(queues, failures, paused, leader, lag);
      m.put("sweep_health", sweepsJson(sweeps));
      printJson(m);
    } else {
      print(queues, failures, paused, leader, lag);
      print(sweeps);
    }
    return ExitCodes.OK;
  }

  private Map<String, Object> json(
      List<QueueInfo> queues,
      Map<String, Long> failures,
      List<Pause> paused,
      Optional<LeaderInfo> leader,
      ReclaimFeedLag lag) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("schema", taskq().schema().value());
    List<Object> q = new ArrayList<>();
    for (QueueInfo info : queues) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("queue", info.name());
      row.put("counts", Rendering.counts(info.counts()));
      row.put("failed_last_hour", failures.getOrDefault(info.name(), 0L));
      row.put("oldest_pending_age_ms", info.oldestPendingAge());
      row.put("paused", info.paused());
      q.add(row);
    }
    m.put("queues", q);
    m.put("paused", paused.stream().map(QueuesCommand::pauseJson).toList());
    m.put("leader", leader.map(StatusCommand::leaderJson).orElse(null));
    Map<String, Object> feed = new LinkedHashMap<>();
    feed.put("held_back_events", lag.heldBackEvents());
    feed.put("oldest_held_back_event_age_ms", lag.oldestHeldBackEventAge());
    feed.put("oldest_transaction_age_ms", lag.oldestTransactionAge());
    m.put("feed_lag", feed);
    return m;
  }

  private static Map<String, Object> leaderJson(LeaderInfo l) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("pid", l.pid());
    m.put("application_name", l.applicationName());
    m.put("client_address", l.clientAddress());
    m.put("since", l.since());
    return m;
  }

  private void print(
      List<QueueInfo> queues,
      Map<String, Long> failures,
      List<Pause> paused,
      Optional<LeaderInfo> leader,
      ReclaimFeedLag lag) {
    session.out.println("schema " + taskq().schema().value());
    Table t =
        new Table("QUEUE", "PENDING", "SCHEDULED", "RUNNING", "FAILED 1H", "OLDEST", "PAUSED");
    for (QueueInfo q : queues) {
      t.row(
          q.name(),
          q.count(JobStatus.PENDING),
          q.count(JobStatus.SCHEDULED),
          q.count(JobStatus.RUNNING),
          failures.getOrDefault(q.name(), 0L),
          Durations.human(q.oldestPendingAge()),
          q.paused() ? "yes" : "no");
    }
    t.print(session.out);
    session.out.println(
        "paused:   "
            + (paused.isEmpty()
                ? "nothing"
                : String.join(", ", paused.stream().map(p -> p.target().toString()).toList())));
    session.out.println(
        "leader:   "
            + leader
                .map(
                    l ->
                        "pid "
                            + l.pid()
                            + (l.clientAddress() == null ? "" : " at " + l.clientAddress())
                            + (l.applicationName().isEmpty()
                                ? ""
                                : " (" + l.applicationName() + ")"))
                .orElse("none: no process runs maintenance for this schema"));
    session.out.println(
        "feed lag: "
            + lag.heldBackEvents()
            + " held-back events, oldest "
            + Durations.human(lag.oldestHeldBackEventAge()));
  }

  static Map<String, Object> sweepsJson(SweepHealth health) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("degraded", health.degraded());
    m.put("leader_present", health.leader() != null);
    m.put("read_at", health.readAt());
    List<Object> rows = new ArrayList<>();
    for (SweepHealth.Sweep s : health.sweeps()) {
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
      rows.add(row);
    }
    m.put("sweeps", rows);
    return m;
  }

  private void print(SweepHealth health) {
    session.out.println("sweeps:   " + summary(health));
    if (health.sweeps().isEmpty()) {
      return;
    }
    Table t =
        new Table(
            "SWEEP",
            "ID",
            "LAST SUCCESS",
            "LAST ERROR",
            "TIER",
            "BATCH",
            "FAILS",
            "STALLED",
            "WRITTEN");
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
          Durations.human(s.writtenAge()) + " ago" + freshness(s.freshness()));
    }
    t.print(session.out);
    for (SweepHealth.Sweep s : health.sweeps()) {
      if (s.stallReason() != null) {
        session.out.println("  " + s.stallReason());
      }
    }
  }

  /** One line: healthy or degraded, and whether the rows can be trusted. */
  static String summary(SweepHealth health) {
    if (health.sweeps().isEmpty()) {
      return health.leader() == null
          ? "none written: no leader, and none has written sweep health in this schema yet"
          : "none written yet: the leader writes them after its first sweep tick";
    }
    long stalled = health.sweeps().stream().filter(SweepHealth.Sweep::stalled).count();
    long reduced =
        health.sweeps().stream().filter(s -> s.tier() == SweepHealth.BreakerTier.REDUCED).count();
    String verdict =
        health.degraded()
            ? "degraded (" + stalled + " stalled, " + reduced + " on the reduced tier)"
            : "healthy";
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
    return Durations.human(age.isNegative() ? Duration.ZERO : age) + " ago";
  }
}
