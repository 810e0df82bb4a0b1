package io.taskq.dashboard.internal;

import io.taskq.dashboard.DashboardSettings;
import io.taskq.dashboard.DashboardUser;
import java.util.HashMap;
import java.util.Map;

/**
 * What every page's frame shows (navigation, who is signed in, the CSRF token for its forms, the
 * message of the last action), plus the page's own values. A Mustache scope.
 */
final class PageScope {
  private PageScope() {}

  /** The scope of page {@code nav} titled {@code title} for {@code visit}. */
  static Map<String, Object> of(
      DashboardSettings settings, Gate gate, Visit visit, String nav, String title) {
    Map<String, Object> scope = new HashMap<>();
    String base = settings.path().equals("/") ? "" : settings.path();
    scope.put("base", base);
    scope.put("title", title);
    scope.put("nav_" + nav, true);
    scope.put("csrf", visit.session().csrfToken());
    scope.put("mayAct", gate.mayAct(visit));
    scope.put("readOnly", !gate.mayAct(visit));
    DashboardUser user = visit.user();
    if (user != null) {
      scope.put("userName", user.name());
    }
    scope.put("signsIn", settings.signsIn() && user != null);
    String flash = visit.session().takeFlash();
    if (flash != null) {
      scope.put("flash", flash);
    }
    return scope;
  }
}
