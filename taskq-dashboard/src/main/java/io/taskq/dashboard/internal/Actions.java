package io.taskq.dashboard.internal;

import io.taskq.bulk.CancelResult;
import io.taskq.dashboard.DashboardResponse;
import io.taskq.dashboard.DashboardUser;
import io.taskq.operations.DiscardResult;
import io.taskq.operations.PauseTarget;
import io.taskq.operations.RetryResult;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The state changes (W2), each through the public TaskQ API, each after {@link Gate#refuseAction}
 * let it through. Every one is logged as an audit line naming the user, the action, its target and
 * its outcome, and answers with a redirect to the page it came from, carrying the outcome as that
 * page's message. The target arrives in the form ({@code id}, {@code name}), never in the path, so
 * names need no path encoding.
 */
final class Actions {
  private static final Logger AUDIT = LoggerFactory.getLogger("io.taskq.dashboard.audit");

  private final Context ctx;
  private final BulkActions bulk;

  Actions(Context ctx, BulkActions bulk) {
    this.ctx = ctx;
    this.bulk = bulk;
  }

  /** The answer to POST {@code route}, or empty when no action has that route. */
  Optional<DashboardResponse> run(Visit visit, String route) {
    return switch (route) {
      case "/jobs/cancel" -> Optional.of(cancel(visit));
      case "/jobs/retry" -> Optional.of(retry(visit));
      case "/jobs/discard" -> Optional.of(discard(visit));
      case "/jobs/bulk" -> Optional.of(bulk.start(visit));
      case "/queues/pause" ->
          Optional.of(pause(visit, true, "queue", PauseTarget::queue, "/queues"));
      case "/queues/resume" ->
          Optional.of(pause(visit, false, "queue", PauseTarget::queue, "/queues"));
      case "/actors/pause" ->
          Optional.of(pause(visit, true, "actor", PauseTarget::actor, "/actors"));
      case "/actors/resume" ->
          Optional.of(pause(visit, false, "actor", PauseTarget::actor, "/actors"));
      case "/schedules/enable" -> Optional.of(schedule(visit, true));
      case "/schedules/disable" -> Optional.of(schedule(visit, false));
      default -> Optional.empty();
    };
  }

  private DashboardResponse cancel(Visit visit) {
    Optional<Long> id = visit.request().form("id").flatMap(Ids::parse);
    if (id.isEmpty()) {
      return Responses.plain(400, "refused: the form names no job id");
    }
    String by = operator(user(visit));
    CancelResult result = ctx.taskq().jobs().cancel(id.get(), by);
    String message =
        switch (result) {
          case CANCELLED -> "Job " + id.get() + " cancelled.";
          case CANCEL_REQUESTED -> "Job " + id.get() + " is running: cancel requested.";
          case ALREADY_FINISHED -> "Job " + id.get() + " had already finished; nothing changed.";
          case NOT_FOUND -> "No job " + id.get() + ".";
        };
    audit(visit, "cancel", "job " + id.get(), result.name());
    return done(visit, "/jobs/" + id.get(), message);
  }

  private DashboardResponse retry(Visit visit) {
    Optional<Long> id = visit.request().form("id").flatMap(Ids::parse);
    if (id.isEmpty()) {
      return Responses.plain(400, "refused: the form names no job id");
    }
    String by = operator(user(visit));
    RetryResult result = ctx.taskq().operations().retry(id.get(), null, by);
    String message =
        switch (result.outcome()) {
          case RETRIED -> "Job " + id.get() + " retried.";
          case NOT_FOUND -> "No job " + id.get() + ".";
          case NOT_RETRYABLE ->
              "Job " + id.get() + " is not failed, crashed or cancelled; not retried.";
          case BATCH_MEMBER -> "Job " + id.get() + " belongs to a batch; not retried.";
          case ARCHIVED -> "Job " + id.get() + " is archived; not retried.";
        };
    audit(visit, "retry", "job " + id.get(), result.outcome().name());
    return done(visit, "/jobs/" + id.get(), message);
  }

  private DashboardResponse discard(Visit visit) {
    Optional<Long> id = visit.request().form("id").flatMap(Ids::parse);
    if (id.isEmpty()) {
      return Responses.plain(400, "refused: the form names no job id");
    }
    String reason = visit.request().form("reason").map(String::strip).orElse("");
    if (reason.isEmpty()) {
      return done(visit, "/jobs/" + id.get(), "Job " + id.get() + " not discarded: say why.");
    }
    if (reason.length() > 1000) {
      return Responses.plain(400, "refused: the reason is longer than 1000 characters");
    }
    String by = operator(user(visit));
    DiscardResult result = ctx.taskq().operations().discard(id.get(), reason, by);
    audit(visit, "discard", "job " + id.get(), result.outcome().name());
    return done(visit, "/jobs/" + id.get(), sentence(result.message()));
  }

  /** An API message as a sentence: capital first letter, full stop. */
  private static String sentence(String message) {
    String s =
        message.isEmpty()
            ? message
            : Character.toUpperCase(message.charAt(0)) + message.substring(1);
    return s.endsWith(".") ? s : s + ".";
  }

  /** Pauses or resumes the queue or actor the form names ({@code field}: "queue" or "actor"). */
  private DashboardResponse pause(
      Visit visit,
      boolean pause,
      String field,
      Function<String, PauseTarget> targetOf,
      String page) {
    Optional<String> name = visit.request().form(field);
    if (name.isEmpty()) {
      return Responses.plain(400, "refused: the form names no " + field);
    }
    PauseTarget target;
    try {
      target = targetOf.apply(name.get());
    } catch (IllegalArgumentException e) {
      return Responses.plain(400, "refused: " + e.getMessage());
    }
    String by = operator(user(visit));
    boolean changed =
        pause
            ? ctx.taskq()
                .operations()
                .pause(target, by, visit.request().form("reason").orElse(null))
            : ctx.taskq().operations().resume(target, by);
    String verb = pause ? "paused" : "resumed";
    audit(
        visit, pause ? "pause" : "resume", field + " " + name.get(), changed ? verb : "unchanged");
    String noun = Character.toUpperCase(field.charAt(0)) + field.substring(1);
    String message =
        noun + " " + name.get() + (changed ? " " + verb + "." : " was already " + verb + ".");
    return done(visit, page, message);
  }

  private DashboardResponse schedule(Visit visit, boolean enable) {
    Optional<String> name = visit.request().form("name");
    if (name.isEmpty()) {
      return Responses.plain(400, "refused: the form names no schedule");
    }
    boolean found =
        enable
            ? ctx.taskq().schedules().enable(name.get())
            : ctx.taskq().schedules().disable(name.get());
    String verb = enable ? "enabled" : "disabled";
    audit(visit, enable ? "enable" : "disable", "schedule " + name.get(), found ? verb : "absent");
    String message =
        found ? "Schedule " + name.get() + " " + verb + "." : "No schedule " + name.get() + ".";
    return done(visit, "/schedules", message);
  }

  private DashboardResponse done(Visit visit, String route, String message) {
    ctx.inventory().invalidate();
    visit.session().flash(message);
    return Responses.redirect(ctx.link(route));
  }

  /**
   * {@return who an action names in its events and log lines: {@code dashboard:<user>}, the same
   * for every action (retry, cancel, discard, pause, resume and the bulk ones)}
   *
   * @param user the signed-in user
   */
  static String operator(DashboardUser user) {
    return "dashboard:" + user.name();
  }

  private static DashboardUser user(Visit visit) {
    return Objects.requireNonNull(visit.user(), "the gate lets only users act");
  }

  private static void audit(Visit visit, String action, String target, String outcome) {
    DashboardUser user = user(visit);
    AUDIT.info(
        "TaskQ dashboard action: user={} action={} target={} outcome={}",
        user.name(),
        action,
        target,
        outcome);
  }
}
