package io.taskq.cli;

import io.taskq.JobStatus;
import io.taskq.operations.Pause;
import io.taskq.operations.PauseTarget;
import io.taskq.operations.QueueInfo;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code taskq queues}: list, pause and resume queues. */
@Command(
    name = "queues",
    mixinStandardHelpOptions = true,
    description = "List, pause and resume queues.",
    subcommands = {
      QueuesCommand.ListQueues.class,
      QueuesCommand.PauseQueue.class,
      QueuesCommand.ResumeQueue.class
    })
final class QueuesCommand extends Group {
  static Map<String, Object> pauseJson(Pause p) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("kind", p.target().kind().dbValue());
    m.put("name", p.target().name());
    m.put("paused_at", p.pausedAt());
    m.put("paused_by", p.pausedBy());
    m.put("reason", p.reason());
    return m;
  }

  /** {@code queues list}. */
  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description = "Every queue, counts and pause.")
  static final class ListQueues extends BaseCommand {
    ListQueues(Session session) {
      super(session);
    }

    @Override
    int run() {
      List<QueueInfo> queues = ops().queues();
      if (json()) {
        printJson(
            queues.stream()
                .map(
                    q -> {
                      Map<String, Object> m = new LinkedHashMap<>();
                      m.put("queue", q.name());
                      m.put("counts", Rendering.counts(q.counts()));
                      m.put("oldest_pending_age_ms", q.oldestPendingAge());
                      m.put("paused", q.paused());
                      return m;
                    })
                .toList());
        return ExitCodes.OK;
      }
      Table t =
          new Table(
              "QUEUE",
              "PENDING",
              "SCHEDULED",
              "RUNNING",
              "FAILED",
              "SUCCEEDED",
              "OLDEST",
              "PAUSED");
      for (QueueInfo q : queues) {
        t.row(
            q.name(),
            q.count(JobStatus.PENDING),
            q.count(JobStatus.SCHEDULED),
            q.count(JobStatus.RUNNING),
            q.count(JobStatus.FAILED),
            q.count(JobStatus.SUCCEEDED),
            Durations.human(q.oldestPendingAge()),
            q.paused() ? "yes" : "no");
      }
      t.print(session.out);
      return ExitCodes.OK;
    }
  }

  /** {@code queues pause NAME}. */
  @Command(
      name = "pause",
      mixinStandardHelpOptions = true,
      description = {
        "Pause a queue ('*' for every queue): stored in the database, effective on every worker"
            + " at once; running jobs finish, enqueues and cron go on (their jobs wait)."
      })
  static final class PauseQueue extends BaseCommand {
    @Parameters(paramLabel = "QUEUE", description = "The queue, or '*' for all.")
    String name = "";

    @Option(names = "--reason", description = "Why (shown by status and queues list).")
    @Nullable String reason;

    @Option(names = "--by", description = "Who pauses (default: $USER).")
    @Nullable String by;

    PauseQueue(Session session) {
      super(session);
    }

    @Override
    int run() {
      PauseTarget target =
          PauseTarget.ALL.equals(name) ? PauseTarget.allQueues() : PauseTarget.queue(name);
      return Pausing.pause(this, target, by, reason);
    }
  }

  /** {@code queues resume NAME}. */
  @Command(name = "resume", mixinStandardHelpOptions = true, description = "Resume a paused queue.")
  static final class ResumeQueue extends BaseCommand {
    @Parameters(paramLabel = "QUEUE", description = "The queue, or '*'.")
    String name = "";

    ResumeQueue(Session session) {
      super(session);
    }

    @Override
    int run() {
      PauseTarget target =
          PauseTarget.ALL.equals(name) ? PauseTarget.allQueues() : PauseTarget.queue(name);
      return Pausing.resume(this, target);
    }
  }
}
