package io.taskq.dashboard.internal;

import io.taskq.dashboard.DashboardResponse;
import io.taskq.operations.JobPage;
import io.taskq.operations.JobSummary;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code /jobs}: search (W1, A1) by status, queue, actor and error class, filters in the URL,
 * newest first, {@value #PAGE_SIZE} a page with keyset paging ({@code before=<id>}): a page is one
 * index-backed statement of the operations API, never an offset or a count over the table. A job id
 * ({@code ?id=42}) opens that job.
 */
final class JobsPage {
  static final int PAGE_SIZE = 50;

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
    JobSearch search;
    JobPage page;
    try {
      search = JobSearch.from(visit.request());
      page = search(search);
    } catch (JobSearch.BadQuery | IllegalArgumentException e) {
      return ctx.notice(visit, 400, "Jobs", String.valueOf(e.getMessage()));
    }
    Map<String, Object> scope = ctx.scope(visit, "jobs", "Jobs");
    scope.put("f", search.fields());
    scope.put("jobs", rows(page));
    scope.put("none", page.jobs().isEmpty());
    putLinks(scope, search, page);
    return ctx.page("jobs", scope);
  }

  private JobPage search(JobSearch search) {
    return search.before().isPresent()
        ? ctx.taskq().operations().search(search.filter(), PAGE_SIZE, search.before().get())
        : ctx.taskq().operations().search(search.filter(), PAGE_SIZE);
  }

  /** The page's links: the next page, the first page, and bulk retry / cancel of the filter. */
  private void putLinks(Map<String, Object> scope, JobSearch search, JobPage page) {
    String query = search.query();
    page.nextCursor()
        .ifPresent(
            next ->
                scope.put(
                    "next",
                    ctx.link("/jobs?" + (query.isEmpty() ? "" : query + "&") + "before=" + next)));
    String bulkQuery = query.isEmpty() ? "" : "&" + query;
    boolean bulk = false;
    if (search.retryFilter().isPresent()) {
      scope.put("bulkRetry", ctx.link("/jobs/bulk?action=retry" + bulkQuery));
      bulk = true;
    }
    if (search.cancelFilter().isPresent()) {
      scope.put("bulkCancel", ctx.link("/jobs/bulk?action=cancel" + bulkQuery));
      bulk = true;
    }
    scope.put("bulk", bulk && !page.jobs().isEmpty());
    if (search.before().isPresent()) {
      scope.put("first", ctx.link("/jobs" + (query.isEmpty() ? "" : "?" + query)));
    }
  }

  private static List<Map<String, Object>> rows(JobPage page) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (JobSummary j : page.jobs()) {
      Map<String, Object> r = new LinkedHashMap<>();
      r.put("id", j.id());
      r.put("actor", j.actor());
      r.put("queue", j.queue());
      r.put("status", j.status().dbValue());
      r.put("attempts", j.attempt() + " / " + j.maxAttempts());
      r.put("createdAt", Format.instant(j.createdAt()));
      r.put("finishedAt", Format.instant(j.finishedAt()));
      String error = j.errorClass();
      r.put("error", error == null ? "" : error);
      rows.add(r);
    }
    return rows;
  }
}
