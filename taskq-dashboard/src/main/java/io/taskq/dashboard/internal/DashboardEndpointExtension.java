package io.taskq.dashboard.internal;

import com.sun.net.httpserver.HttpHandler;
import io.taskq.TaskQ;
import io.taskq.TaskQConfig;
import io.taskq.dashboard.Dashboard;
import io.taskq.dashboard.DashboardHttpHandler;
import io.taskq.dashboard.DashboardSettings;
import io.taskq.metrics.http.EndpointExtension;
import java.util.Map;
import java.util.Set;

/**
 * Serves the dashboard on taskq-metrics' HTTP endpoint, beside {@code /live}, {@code /ready} and
 * {@code /metrics}, when {@code TASKQ_HTTP_DASHBOARD=true} (off by default): under {@code
 * TASKQ_DASHBOARD_PATH}, with the {@code TASKQ_DASHBOARD_*} sign-in, read-only and origin settings,
 * on the endpoint's port and bind address ({@code TASKQ_HTTP_BIND}, {@code 127.0.0.1} by default).
 * The handler is the one {@link io.taskq.dashboard.DashboardServer} mounts on its own port, so
 * authentication, read-only mode, CSRF checks and security headers are the same. Found by {@link
 * java.util.ServiceLoader} from {@code META-INF/services}.
 */
public final class DashboardEndpointExtension implements EndpointExtension {
  private static final Set<String> PROBES = Set.of("/", "/live", "/ready", "/metrics");

  /** For {@link java.util.ServiceLoader}. */
  public DashboardEndpointExtension() {}

  @Override
  public Map<String, HttpHandler> contexts(TaskQ taskq) {
    TaskQConfig config = taskq.config();
    if (!config.httpDashboard()) {
      return Map.of();
    }
    String path = config.dashboardPath();
    if (PROBES.contains(path)) {
      throw new IllegalStateException(
          "TASKQ_DASHBOARD_PATH="
              + path
              + " cannot serve the dashboard on the HTTP endpoint (TASKQ_HTTP_DASHBOARD=true):"
              + " the endpoint serves /live, /ready and /metrics; choose another path, such as "
              + DashboardSettings.DEFAULT_PATH);
    }
    Dashboard dashboard = Dashboard.create(taskq, DashboardSettings.fromConfig(config));
    return Map.of(path, new DashboardHttpHandler(dashboard));
  }
}
