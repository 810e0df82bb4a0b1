package io.taskq.dashboard;

import io.taskq.TaskQ;
import io.taskq.dashboard.internal.Router;
import java.time.InstantSource;
import java.util.Objects;

/**
 * The dashboard over one {@link TaskQ}: server-agnostic, thread-safe.
 *
 * <pre>{@code
 * Dashboard dashboard = Dashboard.create(taskq, DashboardSettings.fromConfig(taskq.config()));
 * DashboardResponse response = dashboard.handle(request);
 * }</pre>
 *
 * <p>A server adapter turns its request into a {@link DashboardRequest} (the path below the mount
 * point) and writes the {@link DashboardResponse} out as is: {@link DashboardHttpHandler} does so
 * for the JDK's HTTP server. Every response already carries the security headers (W5); every state
 * change has been checked for origin, CSRF token, authentication and permission (W3, W4) before it
 * reaches the TaskQ API. Sessions live in this object's memory.
 */
public final class Dashboard {
  private final Router router;
  private final DashboardSettings settings;

  private Dashboard(Router router, DashboardSettings settings) {
    this.router = router;
    this.settings = settings;
  }

  /**
   * A dashboard over {@code taskq} with {@code settings}.
   *
   * @param taskq the TaskQ the dashboard shows and acts on
   * @param settings the mount path, access and sign-in settings
   * @return a new dashboard; it serves nothing until a server or handler mounts it
   */
  public static Dashboard create(TaskQ taskq, DashboardSettings settings) {
    Objects.requireNonNull(taskq, "taskq");
    Objects.requireNonNull(settings, "settings");
    return new Dashboard(new Router(taskq, settings, InstantSource.system()), settings);
  }

  /**
   * The answer to {@code request}; never throws for a bad request (it answers 4xx).
   *
   * @param request the request, its path below the mount point
   * @return the response to send
   */
  public DashboardResponse handle(DashboardRequest request) {
    return router.handle(request);
  }

  /** {@return the settings this dashboard runs with} */
  public DashboardSettings settings() {
    return settings;
  }
}
