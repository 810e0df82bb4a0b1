package io.taskq.dashboard.internal;

import io.taskq.dashboard.DashboardResponse;
import io.taskq.postgres.QueueBacklog;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/** {@code /queues}: each queue's depth and oldest pending job (W1). */
final class QueuesPage {
  private final Context ctx;

  QueuesPage(Context ctx) {
    this.ctx = ctx;
  }

  DashboardResponse get(Visit visit) {
    Map<String, Object> scope = ctx.scope(visit, "queues", "Queues");
    List<Map<String, Object>> rows = new ArrayList<>();
    try {
      List<QueueBacklog> backlog = new ArrayList<>(ctx.taskq().queueBacklog());
      backlog.sort(Comparator.comparing(QueueBacklog::queue));
      for (QueueBacklog b : backlog) {
        rows.add(
            Map.of(
                "name", b.queue(),
                "depth", Format.count(b.depth()),
                "oldest", Format.age(b.oldestPendingAge())));
      }
    } catch (SQLException e) {
      scope.put("unavailable", true);
    }
    scope.put("queues", rows);
    scope.put("none", rows.isEmpty());
    return ctx.page("queues", scope);
  }
}
