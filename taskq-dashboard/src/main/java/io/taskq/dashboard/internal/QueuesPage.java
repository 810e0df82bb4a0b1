package io.taskq.dashboard.internal;

import io.taskq.JobStatus;
import io.taskq.dashboard.DashboardResponse;
import io.taskq.operations.QueueInfo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code /queues}: every queue with its jobs per status, the age of its oldest due pending job and
 * whether it is paused, with pause / resume (W1, W2, A4). The list comes from the operations API,
 * which reads queue names from the registered actors, the counts index and the pauses, never from a
 * distinct scan of the jobs table.
 */
final class QueuesPage {
  private final Context ctx;

  QueuesPage(Context ctx) {
    this.ctx = ctx;
  }

  DashboardResponse get(Visit visit) {
    Map<String, Object> scope = ctx.scope(visit, "queues", "Queues");
    List<Map<String, Object>> rows = rows(ctx.taskq().operations().queues());
    scope.put("queues", rows);
    scope.put("none", rows.isEmpty());
    return ctx.page("queues", scope);
  }

  /** One row per queue, as the queues page and the overview show them. */
  static List<Map<String, Object>> rows(List<QueueInfo> queues) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (QueueInfo q : queues) {
      Map<String, Object> r = new LinkedHashMap<>();
      r.put("name", q.name());
      r.put("param", Format.queryValue(q.name()));
      r.put("paused", q.paused());
      for (JobStatus s : JobStatus.values()) {
        r.put(s.dbValue(), Format.count(q.count(s)));
      }
      r.put("oldest", Format.age(q.oldestPendingAge()));
      rows.add(r);
    }
    return rows;
  }
}
