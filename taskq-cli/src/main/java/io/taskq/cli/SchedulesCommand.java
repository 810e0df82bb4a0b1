package io.taskq.cli;

import io.taskq.cron.ScheduleInfo;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code taskq schedules}: list, enable and disable cron schedules. */
@Command(
    name = "schedules",
    mixinStandardHelpOptions = true,
    description = "List, enable and disable cron schedules.",
    subcommands = {
      SchedulesCommand.ListSchedules.class,
      SchedulesCommand.EnableSchedule.class,
      SchedulesCommand.DisableSchedule.class
    })
final class SchedulesCommand extends Group {
  /** {@code schedules list}. */
  @Command(name = "list", mixinStandardHelpOptions = true, description = "Every cron schedule.")
  static final class ListSchedules extends BaseCommand {
    ListSchedules(Session session) {
      super(session);
    }

    @Override
    int run() {
      List<ScheduleInfo> schedules = taskq().schedules().list();
      if (json()) {
        printJson(
            schedules.stream()
                .map(
                    s -> {
                      Map<String, Object> m = new LinkedHashMap<>();
                      m.put("name", s.name());
                      m.put("actor", s.actor());
                      m.put("cron", s.cronExpression());
                      m.put("time_zone", s.timeZone().getId());
                      m.put("enabled", s.enabled());
                      m.put("next_fire_at", s.nextFireAt());
                      m.put("consecutive_failures", s.consecutiveFailures());
                      return m;
                    })
                .toList());
        return ExitCodes.OK;
      }
      Table t = new Table("NAME", "ACTOR", "CRON", "ZONE", "ENABLED", "NEXT FIRE", "FAILURES");
      for (ScheduleInfo s : schedules) {
        t.row(
            s.name(),
            s.actor(),
            s.cronExpression(),
            s.timeZone().getId(),
            s.enabled() ? "yes" : "no",
            s.nextFireAt(),
            s.consecutiveFailures());
      }
      t.print(session.out);
      return ExitCodes.OK;
    }
  }

  /** {@code schedules enable NAME}. */
  @Command(name = "enable", mixinStandardHelpOptions = true, description = "Enable a schedule.")
  static final class EnableSchedule extends BaseCommand {
    @Parameters(paramLabel = "NAME", description = "The schedule.")
    String name = "";

    EnableSchedule(Session session) {
      super(session);
    }

    @Override
    int run() {
      return SchedulesCommand.report(this, name, taskq().schedules().enable(name), "enabled");
    }
  }

  /** {@code schedules disable NAME}. */
  @Command(name = "disable", mixinStandardHelpOptions = true, description = "Disable a schedule.")
  static final class DisableSchedule extends BaseCommand {
    @Parameters(paramLabel = "NAME", description = "The schedule.")
    String name = "";

    DisableSchedule(Session session) {
      super(session);
    }

    @Override
    int run() {
      return SchedulesCommand.report(this, name, taskq().schedules().disable(name), "disabled");
    }
  }

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
