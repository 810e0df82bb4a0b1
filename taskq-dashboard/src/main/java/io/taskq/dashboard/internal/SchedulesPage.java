package io.taskq.dashboard.internal;

import io.taskq.cron.ScheduleInfo;
import io.taskq.dashboard.DashboardResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code /schedules}: the cron schedules (W1): next fire, failures, enable / disable (W2). */
final class SchedulesPage {
  private final Context ctx;

  SchedulesPage(Context ctx) {
    this.ctx = ctx;
  }

  DashboardResponse get(Visit visit) {
    Map<String, Object> scope = ctx.scope(visit, "schedules", "Schedules");
    List<Map<String, Object>> rows = new ArrayList<>();
    for (ScheduleInfo s : ctx.taskq().schedules().list()) {
      rows.add(row(s));
    }
    scope.put("schedules", rows);
    scope.put("none", rows.isEmpty());
    return ctx.page("schedules", scope);
  }

  private static Map<String, Object> row(ScheduleInfo s) {
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("name", s.name());
    r.put("actor", s.actor());
    r.put("cron", s.cronExpression());
    r.put("zone", s.timeZone().getId());
    r.put("enabled", s.enabled());
    r.put("nextFireAt", Format.instant(s.nextFireAt()));
    r.put("lastFiredAt", Format.instant(s.lastFiredAt()));
    r.put("failures", s.consecutiveFailures());
    r.put("failing", s.consecutiveFailures() > 0);
    r.put("lastError", s.lastFireError() == null ? "" : s.lastFireError());
    Long lastJob = s.lastJobId();
    if (lastJob != null) {
      r.put("lastJobId", lastJob);
    }
    return r;
  }
}
