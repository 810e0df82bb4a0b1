package io.taskq.dashboard.internal;

import io.taskq.TaskQ;
import io.taskq.dashboard.DashboardRequest;
import io.taskq.dashboard.DashboardResponse;
import io.taskq.dashboard.DashboardSettings;
import io.taskq.dashboard.DashboardUser;
import java.time.InstantSource;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every request's path through the dashboard, in this order: assets (public, no session); the
 * session (opened on first contact, carried in an HttpOnly, SameSite=Strict cookie); who asks (the
 * host's resolver, else the signed-in user of the session, else an anonymous read-only viewer when
 * the dashboard has no credentials); the sign-in pages; then pages for GET and actions for POST,
 * each action behind the {@link Gate}. Every answer gets the security headers. An unexpected error
 * answers 500 without its message (it may carry a connection string) and is logged.
 */
public final class Router {
  private static final Logger LOG = LoggerFactory.getLogger(Router.class);

  /** The session cookie's name. */
  public static final String COOKIE = "taskq_session";

  private final DashboardSettings settings;
  private final Sessions sessions;
  private final Assets assets = new Assets();
  private final Context ctx;
  private final SignIn signIn;
  private final BulkActions bulk;
  private final Actions actions;
  private final OverviewPage overview;
  private final JobsPage jobs;
  private final JobPage job;
  private final QueuesPage queues;
  private final ActorsPage actorsPage;
  private final SchedulesPage schedules;
  private final BatchPage batches;

  /** A router over {@code taskq} with {@code settings}. */
  public Router(TaskQ taskq, DashboardSettings settings, InstantSource clock) {
    this.settings = settings;
    this.sessions = new Sessions(DashboardSettings.SESSION_IDLE_TIMEOUT, clock);
    this.ctx =
        new Context(
            taskq,
            settings,
            new Gate(settings),
            new Templates(),
            new Inventory(taskq, clock, background()));
    this.signIn = new SignIn(ctx, sessions);
    this.bulk = new BulkActions(ctx);
    this.actions = new Actions(ctx, bulk);
    this.overview = new OverviewPage(ctx, new ThroughputChart(taskq, clock));
    this.jobs = new JobsPage(ctx);
    this.job = new JobPage(ctx);
    this.queues = new QueuesPage(ctx);
    this.actorsPage = new ActorsPage(ctx, clock);
    this.schedules = new SchedulesPage(ctx);
    this.batches = new BatchPage(ctx);
  }

  /** The dashboard's one background thread for readings, started when needed, daemon. */
  private static java.util.concurrent.Executor background() {
    return new java.util.concurrent.ThreadPoolExecutor(
        0,
        1,
        30,
        java.util.concurrent.TimeUnit.SECONDS,
        new java.util.concurrent.LinkedBlockingQueue<>(),
        r -> {
          Thread t = new Thread(r, "taskq-dashboard-readings");
          t.setDaemon(true);
          return t;
        });
  }

  /** The answer to {@code request}. */
  public DashboardResponse handle(DashboardRequest request) {
    try {
      return SecurityHeaders.apply(route(request));
    } catch (RuntimeException e) {
      LOG.error("TaskQ dashboard: {} {} failed", request.method(), request.path(), e);
      return SecurityHeaders.apply(Responses.plain(500, "internal error; see the server log"));
    }
  }

  private DashboardResponse route(DashboardRequest request) {
    String method = request.method();
    boolean get = method.equals("GET") || method.equals("HEAD");
    if (!get && !method.equals("POST")) {
      return Responses.plain(405, "method not allowed").withHeader("Allow", "GET, HEAD, POST");
    }
    if (get && request.path().startsWith("/assets/")) {
      return assets.get(request.path()).orElseGet(() -> Responses.plain(404, "not found"));
    }
    Visit visit = visit(request);
    SignIn.Outcome outcome = get ? read(visit) : write(visit);
    return withCookie(outcome.visit(), outcome.response());
  }

  private Visit visit(DashboardRequest request) {
    Optional<Session> found = sessions.find(request.cookie(COOKIE).orElse(null));
    Session session = found.orElseGet(() -> sessions.open(null));
    return new Visit(request, session, user(request, session), found.isEmpty());
  }

  private @Nullable DashboardUser user(DashboardRequest request, Session session) {
    if (settings.access().isPresent()) {
      return settings.access().get().resolve(request).orElse(null);
    }
    if (settings.signsIn()) {
      return session.user();
    }
    return new DashboardUser("anonymous", false);
  }

  private SignIn.Outcome read(Visit visit) {
    String path = visit.request().path();
    if (path.equals("/login")) {
      return same(visit, signIn.form(visit, 200, ""));
    }
    if (visit.user() == null) {
      return same(visit, unauthenticated());
    }
    return same(visit, page(visit, path));
  }

  private SignIn.Outcome write(Visit visit) {
    String path = visit.request().path();
    Optional<DashboardResponse> forged = ctx.gate().refuseForgery(visit);
    if (forged.isPresent()) {
      return same(visit, forged.get());
    }
    if (path.equals("/login") && settings.signsIn()) {
      return signIn.signIn(visit);
    }
    if (path.equals("/logout") && settings.signsIn()) {
      return signIn.signOut(visit);
    }
    Optional<DashboardResponse> refused = ctx.gate().refuseAction(visit);
    if (refused.isPresent()) {
      return same(visit, refused.get());
    }
    return same(
        visit, actions.run(visit, path).orElseGet(() -> Responses.plain(404, "no such action")));
  }

  private DashboardResponse page(Visit visit, String path) {
    return switch (path) {
      case "/" -> overview.get(visit);
      case "/jobs" -> jobs.get(visit);
      case "/jobs/bulk" -> bulk.confirm(visit);
      case "/queues" -> queues.get(visit);
      case "/actors" -> actorsPage.get(visit);
      case "/schedules" -> schedules.get(visit);
      case "/batches" -> batches.lookup(visit);
      default -> numbered(visit, path);
    };
  }

  private DashboardResponse numbered(Visit visit, String path) {
    if (path.startsWith("/jobs/bulk/")) {
      return bulk.run(visit, path.substring("/jobs/bulk/".length()));
    }
    if (path.startsWith("/jobs/")) {
      Optional<Long> id = Ids.parse(path.substring("/jobs/".length()));
      if (id.isPresent()) {
        return job.get(visit, id.get());
      }
    } else if (path.startsWith("/batches/")) {
      Optional<Long> id = Ids.parse(path.substring("/batches/".length()));
      if (id.isPresent()) {
        return batches.get(visit, id.get());
      }
    }
    return ctx.notice(visit, 404, "Not found", "This dashboard has no such page.");
  }

  private DashboardResponse unauthenticated() {
    if (settings.signsIn()) {
      return Responses.redirect(ctx.link("/login"));
    }
    return Responses.plain(401, "not authenticated");
  }

  private DashboardResponse withCookie(Visit visit, DashboardResponse response) {
    if (!visit.newSession()) {
      return response;
    }
    String cookie =
        COOKIE
            + "="
            + visit.session().id()
            + "; Path="
            + settings.path()
            + "; HttpOnly; SameSite=Strict"
            + (visit.request().secure() ? "; Secure" : "");
    return response.withHeader("Set-Cookie", cookie);
  }

  private static SignIn.Outcome same(Visit visit, DashboardResponse response) {
    return new SignIn.Outcome(visit, response);
  }
}
