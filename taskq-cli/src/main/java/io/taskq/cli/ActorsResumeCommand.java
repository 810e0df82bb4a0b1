package io.taskq.cli;

import io.taskq.operations.PauseTarget;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code actors resume NAME}. */
@Command(name = "resume", mixinStandardHelpOptions = true, description = "Resume a paused actor.")
final class ActorsResumeCommand extends BaseCommand {
  @Parameters(paramLabel = "ACTOR", description = "The actor.")
  String name = "";

  @Option(names = "--by", description = "Who resumes (default: $USER).")
  @Nullable String by;

  ActorsResumeCommand(Session session) {
    super(session);
  }

  @Override
  int run() {
    return Pausing.resume(this, PauseTarget.actor(name), by);
  }
}
