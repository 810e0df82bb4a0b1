package io.taskq.cli;

import io.taskq.JobStatus;
import io.taskq.operations.QueueInfo;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;

/** {@code queues list}. */
@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    description = "Every queue, counts and pause.")
final class QueuesListCommand extends BaseCommand {
  QueuesListCommand(Session session) {
    super(session);
  }

  @Override
  int run() {
    List<QueueInfo> queues = ops().queues();
    if (json()) {
      printJson(queues.stream().map(QueuesListCommand::json).toList());
      return ExitCodes.OK;
    }
    table(queues).print(session.out);
    return ExitCodes.OK;
  }

  private static Table table(List<QueueInfo> queues) {
    Table t =
        new Table(
            "QUEUE", "PENDING", "SCHEDULED", "RUNNING", "FAILED", "SUCCEEDED", "OLDEST", "PAUSED");
    for (QueueInfo q : queues) {
      t.row(
          q.name(),
          q.count(JobStatus.PENDING),
          q.count(JobStatus.SCHEDULED),
          q.count(JobStatus.RUNNING),
          q.count(JobStatus.FAILED),
          q.count(JobStatus.SUCCEEDED),
          AgeText.human(q.oldestPendingAge()),
          q.paused() ? "yes" : "no");
    }
    return t;
  }

  private static Map<String, Object> json(QueueInfo q) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("queue", q.name());
    m.put("counts", Rendering.counts(q.counts()));
    m.put("oldest_pending_age_ms", q.oldestPendingAge());
    m.put("paused", q.paused());
    return m;
  }
}
