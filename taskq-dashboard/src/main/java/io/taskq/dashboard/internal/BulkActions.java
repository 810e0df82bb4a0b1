package io.taskq.dashboard.internal;

import io.taskq.bulk.BulkCancelResult;
import io.taskq.bulk.CancelFilter;
import io.taskq.dashboard.DashboardResponse;
import io.taskq.dashboard.DashboardUser;
import io.taskq.operations.BoundedCount;
import io.taskq.operations.JobFilter;
import io.taskq.operations.RetryWhereResult;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bulk retry and bulk cancel by the jobs page's current filter (W2): a confirmation page ({@code
 * GET /jobs/bulk?action=retry&status=failed&...}) that shows how many jobs the action will touch
 * (an index-backed count that stops at {@value #PREVIEW_BOUND}), the action itself ({@code POST
 * /jobs/bulk}, behind the {@link Gate} like every other), which runs {@code retryWhere} or {@code
 * cancelWhere} on a background thread of its own, and the run's page ({@code GET
 * /jobs/bulk/{run}}), which the page's script polls every second while it runs: batches committed,
 * jobs done so far, then the final counts. One run at a time per dashboard; the last {@value
 * #KEPT_RUNS} runs are kept in memory, under random ids.
 */
final class BulkActions {
  private static final Logger AUDIT = LoggerFactory.getLogger("io.taskq.dashboard.audit");
  private static final Logger LOG = LoggerFactory.getLogger(BulkActions.class);

  /** Where the confirmation's count stops. */
  static final int PREVIEW_BOUND = 100_000;

  private static final int KEPT_RUNS = 20;

  private final Context ctx;
  private final ThreadPoolExecutor runner;
  private final Map<String, BulkRun> runs = new LinkedHashMap<>();

  BulkActions(Context ctx) {
    this.ctx = ctx;
    this.runner =
        new ThreadPoolExecutor(
            0,
            1,
            30,
            TimeUnit.SECONDS,
            new SynchronousQueue<>(),
            r -> {
              Thread t = new Thread(r, "taskq-dashboard-bulk");
              t.setDaemon(true);
              return t;
            });
  }

  /** {@code GET /jobs/bulk}: what the action would touch, and the button that starts it. */
  DashboardResponse confirm(Visit visit) {
    if (!ctx.gate().mayAct(visit)) {
      return ctx.notice(visit, 403, "Bulk action", "This dashboard is read-only for you.");
    }
    Optional<String> action = visit.request().query("action");
    if (action.isEmpty() || !(action.get().equals("retry") || action.get().equals("cancel"))) {
      return ctx.notice(visit, 400, "Bulk action", "The action must be retry or cancel.");
    }
    boolean retry = action.get().equals("retry");
    JobSearch search;
    try {
      search = JobSearch.from(visit.request());
    } catch (JobSearch.BadQuery e) {
      return ctx.notice(visit, 400, "Bulk action", String.valueOf(e.getMessage()));
    }
    Optional<JobFilter> affected = retry ? search.retryFilter() : search.cancelCountFilter();
    String title = (retry ? "Retry" : "Cancel") + " jobs by filter";
    if (affected.isEmpty()) {
      return ctx.notice(visit, 400, title, refusal(retry));
    }
    BoundedCount count = ctx.taskq().operations().count(affected.get(), PREVIEW_BOUND);
    Map<String, Object> scope = ctx.scope(visit, "jobs", title);
    scope.put("action", action.get());
    scope.put("retry", retry);
    scope.put("filterText", search.describe());
    scope.put("unfiltered", !search.narrowed());
    scope.put("count", count.capped() ? "more than " + Format.count(count.count()) : count.count());
    scope.put("none", count.count() == 0);
    if (!count.capped()) {
      scope.put("expected", Long.toString(count.count()));
    }
    scope.put("f", search.fields());
    scope.put("filterFields", hidden(search));
    String query = search.query();
    scope.put("back", ctx.link("/jobs" + (query.isEmpty() ? "" : "?" + query)));
    return ctx.page("bulk-confirm", scope);
  }

  /** The filter as the confirmation form's hidden fields (each value escaped by the template). */
  private static java.util.List<Map<String, String>> hidden(JobSearch search) {
    java.util.List<Map<String, String>> out = new java.util.ArrayList<>();
    search.status().ifPresent(s -> out.add(Map.of("name", "status", "value", s.dbValue())));
    search.queue().ifPresent(v -> out.add(Map.of("name", "queue", "value", v)));
    search.actor().ifPresent(v -> out.add(Map.of("name", "actor", "value", v)));
    search.errorClass().ifPresent(v -> out.add(Map.of("name", "error", "value", v)));
    return out;
  }

  private static String refusal(boolean retry) {
    return retry
        ? "A bulk retry acts on failed, crashed and cancelled jobs; the filter's status is none"
            + " of them."
        : "A bulk cancel acts on scheduled, pending and running jobs, filtered by status, queue"
            + " and actor only; the filter's status has ended, or it names an error class.";
  }

  /** {@code POST /jobs/bulk}: starts the run (the gate has let the request through). */
  DashboardResponse start(Visit visit) {
    String action = visit.request().form("action").orElse("");
    if (!action.equals("retry") && !action.equals("cancel")) {
      return Responses.plain(400, "refused: the action must be retry or cancel");
    }
    boolean retry = action.equals("retry");
    JobSearch search;
    try {
      search = JobSearch.fromForm(visit.request());
    } catch (JobSearch.BadQuery e) {
      return Responses.plain(400, "refused: " + e.getMessage());
    }
    long expected = visit.request().form("expected").flatMap(Ids::parse).orElse(-1L);
    DashboardUser user = Objects.requireNonNull(visit.user(), "the gate lets only users act");
    String by = Actions.operator(user);
    Runnable work;
    BulkRun run = new BulkRun(Secrets.randomToken(), action, user.name(), search, expected);
    if (retry) {
      Optional<JobFilter> filter = search.retryFilter();
      if (filter.isEmpty()) {
        return done(visit, search, "Not retried: " + refusal(true));
      }
      work = () -> retry(run, filter.get(), by);
    } else {
      Optional<CancelFilter> filter = search.cancelFilter();
      if (filter.isEmpty()) {
        return done(visit, search, "Not cancelled: " + refusal(false));
      }
      work = () -> cancel(run, filter.get(), by);
    }
    try {
      runner.execute(work);
    } catch (RejectedExecutionException e) {
      return done(visit, search, "Another bulk action is running; wait for it to end and retry.");
    }
    remember(run);
    AUDIT.info(
        "TaskQ dashboard action: user={} action=bulk-{} target=filter [{}] outcome=started run={}",
        user.name(),
        action,
        search.describe(),
        run.id());
    LOG.debug("bulk {} by {} started", action, by);
    return Responses.redirect(ctx.link("/jobs/bulk/" + run.id()));
  }

  private void retry(BulkRun run, JobFilter filter, String by) {
    try {
      RetryWhereResult r =
          ctx.taskq()
              .operations()
              .retryWhere(filter, by, p -> run.progress(p.batches(), p.retried(), 0));
      run.finished(r.batches(), r.retried(), 0, null);
    } catch (RuntimeException e) {
      failed(run, e);
    }
  }

  private void cancel(BulkRun run, CancelFilter filter, String by) {
    try {
      BulkCancelResult r =
          ctx.taskq()
              .jobs()
              .cancelWhere(
                  filter, by, p -> run.progress(p.batches(), p.cancelled(), p.cancelRequested()));
      run.finished(r.batches(), r.cancelled(), r.cancelRequested(), null);
    } catch (RuntimeException e) {
      failed(run, e);
    }
  }

  private static void failed(BulkRun run, RuntimeException e) {
    LOG.error("TaskQ dashboard: bulk {} {} failed", run.action(), run.id(), e);
    run.finished(run.batches(), run.done(), run.requested(), e.getClass().getSimpleName());
  }

  private synchronized void remember(BulkRun run) {
    runs.put(run.id(), run);
    Iterator<BulkRun> oldest = runs.values().iterator();
    while (runs.size() > KEPT_RUNS && oldest.hasNext()) {
      if (!oldest.next().running()) {
        oldest.remove();
      }
    }
  }

  private synchronized Optional<BulkRun> find(String id) {
    return Optional.ofNullable(runs.get(id));
  }

  /** {@code GET /jobs/bulk/{run}}: how far the run got, or its final counts. */
  DashboardResponse run(Visit visit, String id) {
    Optional<BulkRun> found = find(id);
    if (found.isEmpty()) {
      return ctx.notice(
          visit, 404, "Bulk action", "No such bulk action (runs are kept until a restart).");
    }
    BulkRun run = found.get();
    boolean retry = run.action().equals("retry");
    Map<String, Object> scope =
        ctx.scope(visit, "jobs", (retry ? "Retry" : "Cancel") + " by filter");
    scope.put("retry", retry);
    scope.put("runId", run.id());
    scope.put("user", run.user());
    scope.put("filterText", run.search().describe());
    scope.put("state", run.state());
    scope.put("running", run.running());
    scope.put("batches", run.batches());
    scope.put("done", Format.count(run.done()));
    scope.put("requested", Format.count(run.requested()));
    scope.put("startedAt", Format.instant(run.startedAt()));
    scope.put("elapsed", Format.age(run.elapsed()));
    if (run.expected() > 0) {
      scope.put("expected", Format.count(run.expected()));
      scope.put("hasPercent", true);
      scope.put("percent", (int) Math.min(100, Math.round(100.0 * run.done() / run.expected())));
    }
    String error = run.error();
    if (error != null) {
      scope.put("error", error);
    }
    String query = run.search().query();
    scope.put("jobsLink", ctx.link("/jobs" + (query.isEmpty() ? "" : "?" + query)));
    return ctx.page("bulk-run", scope);
  }

  private DashboardResponse done(Visit visit, JobSearch search, String message) {
    visit.session().flash(message);
    String query = search.query();
    return Responses.redirect(ctx.link("/jobs" + (query.isEmpty() ? "" : "?" + query)));
  }

  /** One bulk action's run: written by its thread, read by the pages. */
  static final class BulkRun {
    private final String id;
    private final String action;
    private final String user;
    private final JobSearch search;
    private final long expected;
    private final Instant startedAt = Instant.now();
    private final long startedNanos = System.nanoTime();
    private int batches;
    private long done;
    private long requested;
    private boolean running = true;
    private long elapsedNanos;
    private @Nullable String error;

    BulkRun(String id, String action, String user, JobSearch search, long expected) {
      this.id = id;
      this.action = action;
      this.user = user;
      this.search = search;
      this.expected = expected;
    }

    String id() {
      return id;
    }

    String action() {
      return action;
    }

    String user() {
      return user;
    }

    JobSearch search() {
      return search;
    }

    long expected() {
      return expected;
    }

    Instant startedAt() {
      return startedAt;
    }

    synchronized void progress(int batches, long done, long requested) {
      this.batches = batches;
      this.done = done;
      this.requested = requested;
    }

    synchronized void finished(int batches, long done, long requested, @Nullable String error) {
      progress(batches, done, requested);
      this.error = error;
      this.running = false;
      this.elapsedNanos = System.nanoTime() - startedNanos;
      AUDIT.info(
          "TaskQ dashboard action: user={} action=bulk-{} target=filter [{}] outcome={} run={}"
              + " batches={} done={} cancel_requested={}",
          user,
          action,
          search.describe(),
          error == null ? "done" : "failed:" + error,
          id,
          batches,
          done,
          requested);
    }

    synchronized int batches() {
      return batches;
    }

    synchronized long done() {
      return done;
    }

    synchronized long requested() {
      return requested;
    }

    synchronized boolean running() {
      return running;
    }

    synchronized @Nullable String error() {
      return error;
    }

    synchronized String state() {
      return running ? "running" : error == null ? "done" : "failed";
    }

    synchronized Duration elapsed() {
      return Duration.ofNanos(running ? System.nanoTime() - startedNanos : elapsedNanos);
    }

    @Override
    public String toString() {
      return "bulk " + action.toLowerCase(Locale.ROOT) + " " + id;
    }
  }
}
