package io.taskq.dashboard.internal;

import io.taskq.bulk.BatchInfo;
import io.taskq.dashboard.DashboardResponse;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** {@code /batches}: look up a batch by id; {@code /batches/{id}}: its progress (W1). */
final class BatchPage {
  private final Context ctx;

  BatchPage(Context ctx) {
    this.ctx = ctx;
  }

  DashboardResponse lookup(Visit visit) {
    Optional<String> id = visit.request().query("id");
    if (id.isPresent()) {
      Optional<Long> parsed = Ids.parse(id.get());
      if (parsed.isEmpty()) {
        return ctx.notice(visit, 400, "Batches", "A batch id is a positive whole number.");
      }
      return Responses.redirect(ctx.link("/batches/" + parsed.get()));
    }
    return ctx.page("batches", ctx.scope(visit, "batches", "Batches"));
  }

  DashboardResponse get(Visit visit, long id) {
    Optional<BatchInfo> found = ctx.taskq().jobs().findBatch(id);
    if (found.isEmpty()) {
      return ctx.notice(visit, 404, "Batch " + id, "No batch " + id + " in this schema.");
    }
    BatchInfo b = found.get();
    Map<String, Object> scope = ctx.scope(visit, "batches", "Batch " + id);
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("id", b.id());
    f.put("completed", b.completed());
    f.put("total", Format.count(b.total()));
    f.put("finished", Format.count(b.finished()));
    f.put("succeeded", Format.count(b.succeeded()));
    f.put("failed", Format.count(b.failed()));
    f.put("cancelled", Format.count(b.cancelled()));
    f.put("percent", b.total() == 0 ? 100 : (int) (100L * b.finished() / b.total()));
    f.put("hookActor", b.hookActor() == null ? "" : b.hookActor());
    Long hookJob = b.hookJobId();
    if (hookJob != null) {
      f.put("hookJobId", hookJob);
    }
    f.put("createdAt", Format.instant(b.createdAt()));
    f.put("completedAt", Format.instant(b.completedAt()));
    scope.put("batch", f);
    return ctx.page("batch", scope);
  }
}
