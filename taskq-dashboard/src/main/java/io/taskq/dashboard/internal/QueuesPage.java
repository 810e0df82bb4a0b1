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
 * distinct scan of the jobs table, through the {@link Inventory} (read off the request path, at
 * most a few seconds old); whether a queue is paused is read on each request.
 */
final class QueuesPage {
  private final Context ctx;

  QueuesPage(Context ctx) {
    this.ctx = ctx;
  }

  DashboardResponse get(Visit visit) {
    Map<String, Object> scope = ctx.scope(visit, "queues", "Queues");
    Snapshot<List<QueueInfo>> queues = ctx.inventory().queues();
    List<Map<String, Object>> rows = rows(queues.value(), ctx.inventory().paused());
    scope.put("queues", rows);
    scope.put("countsAt", Format.instant(queues.readAt()));
    scope.put("none", rows.isEmpty());
    return ctx.page("queues", scope);
  }

  /** One row per queue, as the queues page and the overview show them. */
  static List<Map<String, Object>> rows(List<QueueInfo> queues, Paused paused) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (QueueInfo q : queues) {
      Map<String, Object> r = new LinkedHashMap<>();
      r.put("name", q.name());
      r.put("param", Format.queryValue(q.name()));
      r.put("paused", paused.queue(q.name()));
      for (JobStatus s : JobStatus.values()) {
        r.put(s.dbValue(), Format.count(q.count(s)));
      }
      r.put("oldest", Format.age(q.oldestPendingAge()));
      rows.add(r);
    }
    return rows;
  }
}
