package io.taskq.dashboard.internal;

import io.taskq.dashboard.DashboardResponse;
import java.util.Map;
import java.util.Optional;

/** {@code /jobs}: find jobs (W1). A job id in the query ({@code ?id=42}) opens that job. */
final class JobsPage {
  private final Context ctx;

  JobsPage(Context ctx) {
    this.ctx = ctx;
  }

  DashboardResponse get(Visit visit) {
    Optional<String> id = visit.request().query("id");
    if (id.isPresent()) {
      Optional<Long> parsed = Ids.parse(id.get());
      if (parsed.isEmpty()) {
        return ctx.notice(visit, 400, "Jobs", "A job id is a positive whole number.");
      }
      return Responses.redirect(ctx.link("/jobs/" + parsed.get()));
    }
    Map<String, Object> scope = ctx.scope(visit, "jobs", "Jobs");
    return ctx.page("jobs", scope);
  }
}
