package io.taskq.cli;

import picocli.CommandLine.Command;

/** {@code taskq jobs}: list, show, retry and cancel jobs. */
@Command(
    name = "jobs",
    mixinStandardHelpOptions = true,
    description = "List, show, retry and cancel jobs.",
    subcommands = {
      JobsListCommand.class,
      JobsShowCommand.class,
      JobsRetryCommand.class,
      JobsCancelCommand.class
    })
final class JobsCommand extends Group {}
