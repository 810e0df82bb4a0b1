package io.taskq.cli;

import picocli.CommandLine.Command;

/** {@code taskq jobs}: list, show, retry, cancel and discard jobs. */
@Command(
    name = "jobs",
    mixinStandardHelpOptions = true,
    description = "List, show, retry, cancel and discard jobs.",
    subcommands = {
      JobsListCommand.class,
      JobsShowCommand.class,
      JobsRetryCommand.class,
      JobsCancelCommand.class,
      JobsDiscardCommand.class
    })
final class JobsCommand extends Group {}
