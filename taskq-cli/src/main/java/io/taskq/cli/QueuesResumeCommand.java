package io.taskq.cli;

import io.taskq.operations.PauseTarget;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code queues resume NAME}. */
@Command(name = "resume", mixinStandardHelpOptions = true, description = "Resume a paused queue.")
final class QueuesResumeCommand extends BaseCommand {
  @Parameters(paramLabel = "QUEUE", description = "The queue, or '*'.")
  String name = "";

  @Option(names = "--by", description = "Who resumes (default: $USER).")
  @Nullable String by;

  QueuesResumeCommand(Session session) {
    super(session);
  }

  @Override
  int run() {
    PauseTarget target =
        PauseTarget.ALL.equals(name) ? PauseTarget.allQueues() : PauseTarget.queue(name);
    return Pausing.resume(this, target, by);
  }
}
