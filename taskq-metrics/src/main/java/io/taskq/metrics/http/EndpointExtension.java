package io.taskq.metrics.http;

import com.sun.net.httpserver.HttpHandler;
import io.taskq.TaskQ;
import java.util.Map;

/**
 * More contexts for the HTTP endpoint, served beside {@code /live}, {@code /ready} and {@code
 * /metrics} on the same port and bind address (the web dashboard under {@code TASKQ_DASHBOARD_PATH}
 * when {@code TASKQ_HTTP_DASHBOARD=true}, say).
 *
 * <p>{@link io.taskq.metrics.TaskQObservability#attach} finds the implementations on the class path
 * with {@link java.util.ServiceLoader} ({@code
 * META-INF/services/io.taskq.metrics.http.EndpointExtension}) when the endpoint is on, and asks
 * each for its contexts; an extension whose setting is off returns none. This keeps the endpoint's
 * module free of its extensions: a module that serves something here depends on this one, never the
 * other way round.
 */
public interface EndpointExtension {
  /**
   * The contexts to serve for {@code taskq}, read from its configuration.
   *
   * @param taskq the TaskQ the endpoint observes
   * @return path (starting with {@code /}, not {@code /live}, {@code /ready} or {@code /metrics})
   *     to the JDK handler serving it and everything below it; empty when off
   * @throws IllegalStateException when the extension's settings are on but unusable (the message
   *     names the setting)
   */
  Map<String, HttpHandler> contexts(TaskQ taskq);
}
