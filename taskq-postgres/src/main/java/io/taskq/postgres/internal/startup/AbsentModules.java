package io.taskq.postgres.internal.startup;

import io.taskq.TaskQConfig;
import io.taskq.TaskQConfigException.Problem;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * A setting whose module is not on the class path would be ignored in silence (P3): {@code
 * TASKQ_HTTP_PORT} is served by {@code taskq-metrics}, {@code TASKQ_REDIS_URL} is used by {@code
 * taskq-redis}. Without the module, the setting is an error naming both, rather than an endpoint or
 * a Redis connection the operator believes in and that never exists.
 */
final class AbsentModules {
  static final String METRICS_CLASS = "io.taskq.metrics.TaskQObservability";
  static final String REDIS_CLASS = "io.taskq.redis.RedisConnector";
  static final String DASHBOARD_CLASS = "io.taskq.dashboard.Dashboard";

  private AbsentModules() {}

  /** The problems, given a test of whether a class is on the class path. */
  static List<Problem> check(TaskQConfig config, Predicate<String> present) {
    List<Problem> problems = new ArrayList<>();
    if (config.httpPort() != 0 && !present.test(METRICS_CLASS)) {
      problems.add(noMetricsModule(config));
    }
    if (config.httpDashboard() && config.httpPort() == 0) {
      problems.add(dashboardWithoutEndpoint());
    }
    if (config.httpDashboard() && !present.test(DASHBOARD_CLASS)) {
      problems.add(noDashboardModule());
    }
    if (config.redisUrl().isPresent() && !present.test(REDIS_CLASS)) {
      problems.add(noRedisModule());
    }
    return problems;
  }

  private static Problem noMetricsModule(TaskQConfig config) {
    return new Problem(
        List.of("TASKQ_HTTP_PORT"),
        "TASKQ_HTTP_PORT="
            + config.httpPort()
            + " asks for the /live, /ready and /metrics endpoint, but the module that serves"
            + " it, io.taskq:taskq-metrics, is not on the class path: add it (and attach"
            + " TaskQObservability, docs/observability.md), or unset TASKQ_HTTP_PORT");
  }

  private static Problem dashboardWithoutEndpoint() {
    return new Problem(
        List.of("TASKQ_HTTP_DASHBOARD", "TASKQ_HTTP_PORT"),
        "TASKQ_HTTP_DASHBOARD=true serves the dashboard on the HTTP endpoint, but"
            + " TASKQ_HTTP_PORT is 0 (the endpoint is off): set TASKQ_HTTP_PORT, or use"
            + " TASKQ_DASHBOARD_PORT for a server of the dashboard's own");
  }

  private static Problem noDashboardModule() {
    return new Problem(
        List.of("TASKQ_HTTP_DASHBOARD"),
        "TASKQ_HTTP_DASHBOARD=true asks for the web dashboard on the HTTP endpoint, but the"
            + " module that serves it, io.taskq:taskq-dashboard, is not on the class path:"
            + " add it (docs/dashboard.md), or unset TASKQ_HTTP_DASHBOARD");
  }

  private static Problem noRedisModule() {
    return new Problem(
        List.of("TASKQ_REDIS_URL"),
        "TASKQ_REDIS_URL is set, but the module that uses it, io.taskq:taskq-redis, is not on"
            + " the class path: add it (docs/rate-limits.md), or unset TASKQ_REDIS_URL");
  }

  /** Whether TaskQ's own class loader or the thread's (an application server's, say) sees it. */
  static boolean onClassPath(String className) {
    return loads(className, AbsentModules.class.getClassLoader())
        || loads(className, Thread.currentThread().getContextClassLoader());
  }

  private static boolean loads(String className, @Nullable ClassLoader loader) {
    try {
      Class.forName(className, false, loader);
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }
}
