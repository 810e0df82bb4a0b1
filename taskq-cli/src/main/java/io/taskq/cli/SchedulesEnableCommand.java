package io.taskq.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code schedules enable NAME}. */
@Command(name = "enable", mixinStandardHelpOptions = true, description = "Enable a schedule.")
final class SchedulesEnableCommand extends BaseCommand {
  @Parameters(paramLabel = "NAME", description = "The schedule.")
  String name = "";

  SchedulesEnableCommand(Session session) {
    super(session);
  }

  @Override
  int run() {
    return SchedulesCommand.report(this, name, taskq().schedules().enable(name), "enabled");
  }
}
