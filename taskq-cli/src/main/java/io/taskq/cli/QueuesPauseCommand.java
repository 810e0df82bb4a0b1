package io.taskq.cli;

import io.taskq.operations.PauseTarget;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code queues pause NAME}. */
@Command(
    name = "pause",
    mixinStandardHelpOptions = true,
    description = {
      "Pause a queue ('*' for every queue): stored in the database, effective on every worker"
          + " at once; running jobs finish, enqueues and cron go on (their jobs wait)."
    })
final class QueuesPauseCommand extends BaseCommand {
  @Parameters(paramLabel = "QUEUE", description = "The queue, or '*' for all.")
  String name = "";

  @Option(names = "--reason", description = "Why (shown by status and queues list).")
  @Nullable String reason;

  @Option(names = "--by", description = "Who pauses (default: $USER).")
  @Nullable String by;

  QueuesPauseCommand(Session session) {
    super(session);
  }

  @Override
  int run() {
    PauseTarget target =
        PauseTarget.ALL.equals(name) ? PauseTarget.allQueues() : PauseTarget.queue(name);
    return Pausing.pause(this, target, by, reason);
  }
}
