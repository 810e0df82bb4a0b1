package io.taskq.dashboard.internal;

import io.taskq.dashboard.DashboardRequest;
import io.taskq.dashboard.DashboardUser;
import org.jspecify.annotations.Nullable;

/**
 * One request in its session: who asks (null when nobody is signed in), and whether the session is
 * new, so the answer must set its cookie.
 *
 * @param request the request
 * @param session its session (new when the browser brought none or an expired one)
 * @param user the user, or null when not authenticated
 * @param newSession true when the answer must set the session cookie
 */
public record Visit(
    DashboardRequest request, Session session, @Nullable DashboardUser user, boolean newSession) {
  /** This visit on another session (after sign-in or sign-out), whose cookie must be set. */
  Visit on(Session other) {
    return new Visit(request, other, other.user(), true);
  }
}
