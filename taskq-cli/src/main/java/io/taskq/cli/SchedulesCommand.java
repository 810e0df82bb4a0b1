package io.taskq.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;

/** {@code taskq schedules}: list, enable and disable cron schedules. */
@Command(
    name = "schedules",
    mixinStandardHelpOptions = true,
    description = "List, enable and disable cron schedules.",
    subcommands = {
      SchedulesListCommand.class,
      SchedulesEnableCommand.class,
      SchedulesDisableCommand.class
    })
final class SchedulesCommand extends Group {
  static int report(BaseCommand c, String name, boolean found, String action) {
    if (!found) {
      throw new CliException(ExitCodes.NOT_FOUND, "no schedule named '" + name + "'");
    }
    if (c.json()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", name);
      m.put(action, true);
      c.printJson(m);
    } else {
      c.session.out.println("schedule '" + name + "' " + action);
    }
    return ExitCodes.OK;
  }
}
