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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
      m.put("sweep_health", SweepHealthView.json(sweeps));
      printJson(m);
    } else {
      print(queues, failures, paused, leader, lag);
      SweepHealthView.print(sweeps, session.out);
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
    m.put("queues", queues.stream().map(q -> queueJson(q, failures)).toList());
    m.put("paused", paused.stream().map(QueuesCommand::pauseJson).toList());
    m.put("leader", leader.map(StatusCommand::leaderJson).orElse(null));
    m.put("feed_lag", lagJson(lag));
    return m;
  }

  private static Map<String, Object> queueJson(QueueInfo info, Map<String, Long> failures) {
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("queue", info.name());
    row.put("counts", Rendering.counts(info.counts()));
    row.put("failed_last_hour", failures.getOrDefault(info.name(), 0L));
    row.put("oldest_pending_age_ms", info.oldestPendingAge());
    row.put("paused", info.paused());
    return row;
  }

  private static Map<String, Object> lagJson(ReclaimFeedLag lag) {
    Map<String, Object> feed = new LinkedHashMap<>();
    feed.put("held_back_events", lag.heldBackEvents());
    feed.put("oldest_held_back_event_age_ms", lag.oldestHeldBackEventAge());
    feed.put("oldest_transaction_age_ms", lag.oldestTransactionAge());
    return feed;
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
    queueTable(queues, failures).print(session.out);
    session.out.println("paused:   " + pausedLine(paused));
    session.out.println(
        "leader:   "
            + leader
                .map(StatusCommand::leaderLine)
                .orElse("none: no process runs maintenance for this schema"));
    session.out.println(
        "feed lag: "
            + lag.heldBackEvents()
            + " held-back events, oldest "
            + AgeText.human(lag.oldestHeldBackEventAge()));
  }

  private static Table queueTable(List<QueueInfo> queues, Map<String, Long> failures) {
    Table t =
        new Table("QUEUE", "PENDING", "SCHEDULED", "RUNNING", "FAILED 1H", "OLDEST", "PAUSED");
    for (QueueInfo q : queues) {
      t.row(
          q.name(),
          q.count(JobStatus.PENDING),
          q.count(JobStatus.SCHEDULED),
          q.count(JobStatus.RUNNING),
          failures.getOrDefault(q.name(), 0L),
          AgeText.human(q.oldestPendingAge()),
          q.paused() ? "yes" : "no");
    }
    return t;
  }

  private static String pausedLine(List<Pause> paused) {
    return paused.isEmpty()
        ? "nothing"
        : String.join(", ", paused.stream().map(p -> p.target().toString()).toList());
  }

  private static String leaderLine(LeaderInfo l) {
    return "pid "
        + l.pid()
        + (l.clientAddress() == null ? "" : " at " + l.clientAddress())
        + (l.applicationName().isEmpty() ? "" : " (" + l.applicationName() + ")");
  }
}
