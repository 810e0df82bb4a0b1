package io.taskq.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code schedules disable NAME}. */
@Command(name = "disable", mixinStandardHelpOptions = true, description = "Disable a schedule.")
final class SchedulesDisableCommand extends BaseCommand {
  @Parameters(paramLabel = "NAME", description = "The schedule.")
  String name = "";

  SchedulesDisableCommand(Session session) {
    super(session);
  }

  @Override
  int run() {
    return SchedulesCommand.report(this, name, taskq().schedules().disable(name), "disabled");
  }
}
