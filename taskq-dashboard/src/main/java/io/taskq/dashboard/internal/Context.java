package io.taskq.dashboard.internal;

import io.taskq.TaskQ;
import io.taskq.dashboard.DashboardResponse;
import io.taskq.dashboard.DashboardSettings;
import java.util.Map;

/**
 * What the pages and actions share: the TaskQ they read and act on, the settings, the gate, the
 * templates and the queue and actor counts read off the request path.
 */
record Context(
    TaskQ taskq, DashboardSettings settings, Gate gate, Templates templates, Inventory inventory) {
  /** The page frame's scope for {@code visit}. */
  Map<String, Object> scope(Visit visit, String nav, String title) {
    return PageScope.of(settings, gate, visit, nav, title);
  }

  /** Template {@code name} rendered with {@code scope}, as a 200 page. */
  DashboardResponse page(String name, Map<String, Object> scope) {
    return Responses.html(200, templates.render(name, scope));
  }

  /** A page saying {@code message} with {@code status}, in the frame. */
  DashboardResponse notice(Visit visit, int status, String title, String message) {
    Map<String, Object> scope = scope(visit, "none", title);
    scope.put("message", message);
    return Responses.html(status, templates.render("notice", scope));
  }

  /** The absolute path of dashboard route {@code route} (which starts with {@code /}). */
  String link(String route) {
    String base = settings.path().equals("/") ? "" : settings.path();
    return base + route;
  }
}
