package io.taskq.cli;

import io.taskq.cron.ScheduleInfo;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;

/** {@code schedules list}. */
@Command(name = "list", mixinStandardHelpOptions = true, description = "Every cron schedule.")
final class SchedulesListCommand extends BaseCommand {
  SchedulesListCommand(Session session) {
    super(session);
  }

  @Override
  int run() {
    List<ScheduleInfo> schedules = taskq().schedules().list();
    if (json()) {
      printJson(schedules.stream().map(SchedulesListCommand::json).toList());
      return ExitCodes.OK;
    }
    table(schedules).print(session.out);
    return ExitCodes.OK;
  }

  private static Table table(List<ScheduleInfo> schedules) {
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
    return t;
  }

  private static Map<String, Object> json(ScheduleInfo s) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", s.name());
    m.put("actor", s.actor());
    m.put("cron", s.cronExpression());
    m.put("time_zone", s.timeZone().getId());
    m.put("enabled", s.enabled());
    m.put("next_fire_at", s.nextFireAt());
    m.put("consecutive_failures", s.consecutiveFailures());
    return m;
  }
}
