package io.taskq.cli;

import picocli.CommandLine.Command;

/** {@code taskq actors}: list, pause, resume and deregister actors. */
@Command(
    name = "actors",
    mixinStandardHelpOptions = true,
    description = "List, pause, resume and deregister actors.",
    subcommands = {
      ActorsListCommand.class,
      ActorsPauseCommand.class,
      ActorsResumeCommand.class,
      ActorsDeregisterCommand.class
    })
final class ActorsCommand extends Group {}
