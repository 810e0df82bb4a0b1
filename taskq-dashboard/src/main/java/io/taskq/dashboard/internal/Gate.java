package io.taskq.dashboard.internal;

import io.taskq.dashboard.DashboardResponse;
import io.taskq.dashboard.DashboardSettings;
import io.taskq.dashboard.DashboardUser;
import java.util.Optional;

/**
 * The checks every state change passes before it reaches the operations API, in this order: the
 * request comes from this dashboard's origin ({@link OriginCheck}), it carries its session's CSRF
 * token (W4: a per-session random token in each form, compared in constant time), the user is
 * authenticated, and may act (W3: read-only mode and read-only users are refused here, on the
 * server, not only by hiding buttons). Each refusal names its reason and changes nothing.
 */
final class Gate {
  /** The form field carrying the CSRF token. */
  static final String CSRF_FIELD = "csrf";

  private final DashboardSettings settings;
  private final OriginCheck origin;

  Gate(DashboardSettings settings) {
    this.settings = settings;
    this.origin = new OriginCheck(settings.origins());
  }

  /** The refusal of a sign-in attempt (origin and token only), or empty to go on. */
  Optional<DashboardResponse> refuseForgery(Visit visit) {
    Optional<String> problem = origin.problem(visit.request());
    if (problem.isPresent()) {
      return Optional.of(Responses.plain(403, problem.get()));
    }
    String token = visit.request().form(CSRF_FIELD).orElse("");
    if (visit.newSession() || !Secrets.matches(token, visit.session().csrfToken())) {
      return Optional.of(
          Responses.plain(
              403,
              "refused: the form's CSRF token is missing or stale; reload the page and retry"));
    }
    return Optional.empty();
  }

  /** The refusal of a state change, or empty when it may go ahead. */
  Optional<DashboardResponse> refuseAction(Visit visit) {
    Optional<DashboardResponse> forged = refuseForgery(visit);
    if (forged.isPresent()) {
      return forged;
    }
    DashboardUser user = visit.user();
    if (user == null) {
      return Optional.of(Responses.plain(401, "refused: sign in first"));
    }
    if (settings.readOnly() || !user.mayAct()) {
      return Optional.of(Responses.plain(403, "refused: this dashboard is read-only for you"));
    }
    return Optional.empty();
  }

  /** Whether the user may act: drives whether action buttons are shown at all. */
  boolean mayAct(Visit visit) {
    DashboardUser user = visit.user();
    return user != null && user.mayAct() && !settings.readOnly();
  }
}
