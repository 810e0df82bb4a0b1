package io.taskq.metrics.http;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import io.taskq.TaskQConfig;
import io.taskq.core.internal.BindAddress;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The optional HTTP endpoint (D15) on the JDK's built-in {@link HttpServer}.
 *
 * <p>Off by default ({@code TASKQ_HTTP_PORT} 0) and bound to {@code 127.0.0.1} by default ({@code
 * TASKQ_HTTP_BIND}): the probes and metrics of a job queue are not meant for the internet, so
 * exposing them is a deliberate configuration step. The endpoint binds exactly the configured
 * address and nothing else: a bind address that is not an address of this host (a typo, a stale DNS
 * name) is refused with an error rather than silently falling back to another interface. Binding
 * {@code 0.0.0.0} is possible only by configuring it, and is logged.
 *
 * <p>Requests are served by two daemon threads the endpoint owns; {@link #close()} stops the server
 * and them.
 */
public final class HttpEndpoint implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(HttpEndpoint.class);

  private final HttpServer server;
  private final ExecutorService executor;

  private HttpEndpoint(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /**
   * Starts the endpoint as {@code config} says: {@link Optional#empty()} when {@link
   * TaskQConfig#httpPort()} is 0 (off), else serving {@code routes} on {@link
   * TaskQConfig#httpBind()}.
   *
   * @param config the configuration whose HTTP port and bind address are used
   * @param routes path (starting with {@code /}) to handler
   * @return the started endpoint, or empty when the port is 0
   * @throws IllegalArgumentException when the bind address is not an address of this host
   * @throws UncheckedIOException when the port cannot be bound
   */
  public static Optional<HttpEndpoint> fromConfig(
      TaskQConfig config, Map<String, EndpointHandler> routes) {
    return fromConfig(config, routes, Map.of());
  }

  /**
   * Starts the endpoint as {@code config} says, serving {@code contexts} (an {@link
   * EndpointExtension}'s, say) beside {@code routes}; empty when {@link TaskQConfig#httpPort()} is
   * 0.
   *
   * @param config the configuration whose HTTP port and bind address are used
   * @param routes path (starting with {@code /}) to GET handler
   * @param contexts path (starting with {@code /}) to a JDK handler serving every method at that
   *     path and below it
   * @return the started endpoint, or empty when the port is 0
   * @throws IllegalArgumentException when the bind address is not an address of this host, or a
   *     context's path is a route's
   * @throws UncheckedIOException when the port cannot be bound
   */
  public static Optional<HttpEndpoint> fromConfig(
      TaskQConfig config, Map<String, EndpointHandler> routes, Map<String, HttpHandler> contexts) {
    if (config.httpPort() == 0) {
      return Optional.empty();
    }
    return Optional.of(start(config.httpBind(), config.httpPort(), routes, contexts));
  }

  /**
   * The three standard routes: {@code /live}, {@code /ready}, {@code /metrics}.
   *
   * @param live the handler of {@code /live}
   * @param ready the handler of {@code /ready}
   * @param metrics the handler of {@code /metrics}
   * @return an ordered map suitable for {@link #start} and {@link #fromConfig}
   */
  public static Map<String, EndpointHandler> standardRoutes(
      LivenessHandler live, ReadinessHandler ready, MetricsHandler metrics) {
    Map<String, EndpointHandler> routes = new LinkedHashMap<>();
    routes.put("/live", live);
    routes.put("/ready", ready);
    routes.put("/metrics", metrics);
    return routes;
  }

  /**
   * Serves {@code routes} on {@code bind}:{@code port}; port 0 picks an ephemeral port (see {@link
   * #address()}).
   *
   * @return the started endpoint
   * @param bind the address to bind, a literal IP or a host name resolving to this host
   * @param port 0..65535
   * @param routes path (starting with {@code /}) to handler
   * @throws IllegalArgumentException when an argument is out of range, or {@code bind} is not an
   *     address of this host
   * @throws UncheckedIOException when the port cannot be bound
   */
  public static HttpEndpoint start(String bind, int port, Map<String, EndpointHandler> routes) {
    return start(bind, port, routes, Map.of());
  }

  private static HttpEndpoint start(
      String bind,
      int port,
      Map<String, EndpointHandler> routes,
      Map<String, HttpHandler> contexts) {
    if (port < 0 || port > 65_535) {
      throw new IllegalArgumentException("port must be in 0..65535, was " + port);
    }
    InetAddress address = localAddress(bind);
    for (String path : contexts.keySet()) {
      if (!path.startsWith("/") || routes.containsKey(path)) {
        throw new IllegalArgumentException(
            "cannot serve "
                + path
                + " on the HTTP endpoint: a context path starts with / and is none of "
                + routes.keySet());
      }
    }
    noDelay();
    // Pages (the dashboard's) share the threads with the probes: two more keep /ready answering.
    int threads = contexts.isEmpty() ? 2 : 4;
    ExecutorService executor = Executors.newFixedThreadPool(threads, HttpEndpoint::daemon);
    try {
      HttpServer server = HttpServer.create(new InetSocketAddress(address, port), 0);
      routes.forEach((path, handler) -> mount(server, path, handler));
      contexts.forEach(server::createContext);
      server.setExecutor(executor);
      server.start();
      if (address.isAnyLocalAddress()) {
        LOG.warn("TaskQ HTTP endpoint listens on every interface ({})", server.getAddress());
      } else {
        LOG.info("TaskQ HTTP endpoint listens on {}", server.getAddress());
      }
      return new HttpEndpoint(server, executor);
    } catch (IOException e) {
      executor.shutdownNow();
      throw new UncheckedIOException("cannot bind the HTTP endpoint to " + bind + ":" + port, e);
    } catch (RuntimeException e) {
      executor.shutdownNow();
      throw e;
    }
  }

  /** {@return the address and port actually bound} */
  public InetSocketAddress address() {
    return server.getAddress();
  }

  /** Stops serving at once and releases the port and threads. */
  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }

  /**
   * Asks the JDK's server for TCP_NODELAY (unless the application chose otherwise): it writes a
   * response's headers and body apart, and with Nagle's algorithm on the body waits for the
   * client's delayed acknowledgement, 40 ms on Linux. The JDK reads the property when its first
   * server starts in the JVM.
   */
  private static void noDelay() {
    if (System.getProperty(NO_DELAY) == null) {
      System.setProperty(NO_DELAY, "true");
    }
  }

  private static final String NO_DELAY = "sun.net.httpserver.nodelay";

  private static void mount(HttpServer server, String path, EndpointHandler handler) {
    if (!path.startsWith("/") || path.length() < 2) {
      throw new IllegalArgumentException("route path must start with / and name a path: " + path);
    }
    server.createContext(path, new ExchangeAdapter(path, handler));
  }

  static InetAddress localAddress(String bind) {
    return BindAddress.resolve(
        bind,
        "httpBind " + bind,
        "; the endpoint binds only the configured address (default 127.0.0.1)");
  }

  private static Thread daemon(Runnable task) {
    Thread thread = new Thread(task, "taskq-http");
    thread.setDaemon(true);
    return thread;
  }
}
