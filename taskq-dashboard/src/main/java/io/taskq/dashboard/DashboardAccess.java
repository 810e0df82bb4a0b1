package io.taskq.dashboard;

import java.util.Optional;

/**
 * How a host application that authenticates its own users tells the dashboard who is asking (the
 * Oban Web resolver model): mount the dashboard behind the host's authentication and resolve the
 * request to a {@link DashboardUser}.
 *
 * <p>The dashboard checks {@link DashboardUser#mayAct()} on the server for every state change, not
 * only by hiding buttons, and still requires its CSRF token and a same-origin request for every
 * one. When no resolver is set, the dashboard signs users in itself from the configured token or
 * user name and password.
 */
@FunctionalInterface
public interface DashboardAccess {
  /**
   * The user behind {@code request}, or empty when the request is not authenticated (it is then
   * answered 401 and shown nothing).
   *
   * @param request the request to authenticate
   * @return the user, or empty for an unauthenticated request
   */
  Optional<DashboardUser> resolve(DashboardRequest request);
}
