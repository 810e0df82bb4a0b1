package io.taskq.cli;

import io.taskq.operations.PauseTarget;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code actors pause NAME}. */
@Command(
    name = "pause",
    mixinStandardHelpOptions = true,
    description = "Pause an actor: no worker claims its jobs until it is resumed.")
final class ActorsPauseCommand extends BaseCommand {
  @Parameters(paramLabel = "ACTOR", description = "The actor.")
  String name = "";

  @Option(names = "--reason", description = "Why.")
  @Nullable String reason;

  @Option(names = "--by", description = "Who pauses (default: $USER).")
  @Nullable String by;

  ActorsPauseCommand(Session session) {
    super(session);
  }

  @Override
  int run() {
    return Pausing.pause(this, PauseTarget.actor(name), by, reason);
  }
}
