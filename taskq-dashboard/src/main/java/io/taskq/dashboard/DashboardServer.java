package io.taskq.dashboard;

import com.sun.net.httpserver.HttpServer;
import io.taskq.TaskQ;
import io.taskq.TaskQConfig;
import io.taskq.core.internal.BindAddress;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dashboard on a JDK {@link HttpServer} of its own (W3): off unless {@code
 * TASKQ_DASHBOARD_PORT} is set, bound to {@code TASKQ_DASHBOARD_BIND} (default {@code 127.0.0.1})
 * and to nothing else. A bind address that is not an address of this host is refused rather than
 * replaced by another; binding every interface must be configured, and is logged as a warning.
 *
 * <pre>{@code
 * try (TaskQ taskq = TaskQ.builder(dataSource).build()) {
 *   taskq.start();
 *   Optional<DashboardServer> dashboard = DashboardServer.fromConfig(taskq);
 *   ...
 * }
 * }</pre>
 *
 * <p>Requests are served by two daemon threads; {@link #close()} stops the server and them, never
 * the TaskQ.
 */
public final class DashboardServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DashboardServer.class);

  private final HttpServer server;
  private final ExecutorService executor;
  private final String path;

  private DashboardServer(HttpServer server, ExecutorService executor, String path) {
    this.server = server;
    this.executor = executor;
    this.path = path;
  }

  /**
   * Starts the dashboard as {@code taskq.config()}'s {@code TASKQ_DASHBOARD_*} knobs say; empty
   * when {@code TASKQ_DASHBOARD_PORT} is 0 (off, the default).
   *
   * @param taskq the TaskQ to show, whose configuration gives the dashboard's knobs
   * @return the started server, or empty when the port is 0
   * @throws IllegalStateException when the settings allow actions but configure no credentials
   * @throws IllegalArgumentException when the bind address is not an address of this host
   * @throws UncheckedIOException when the port cannot be bound
   */
  public static Optional<DashboardServer> fromConfig(TaskQ taskq) {
    TaskQConfig config = taskq.config();
    if (config.dashboardPort() == 0) {
      return Optional.empty();
    }
    Dashboard dashboard = Dashboard.create(taskq, DashboardSettings.fromConfig(config));
    return Optional.of(start(dashboard, config.dashboardBind(), config.dashboardPort()));
  }

  /**
   * Serves {@code dashboard} on {@code bind}:{@code port} under its settings' path; port 0 picks a
   * free port (see {@link #uri()}).
   *
   * @param dashboard the dashboard to serve
   * @param bind the address to bind, a literal IP or a host name resolving to this host
   * @param port 0..65535; 0 picks a free port
   * @return the started server
   * @throws IllegalArgumentException when {@code port} is outside 0..65535 or {@code bind} is not
   *     an address of this host
   * @throws UncheckedIOException when the port cannot be bound
   */
  public static DashboardServer start(Dashboard dashboard, String bind, int port) {
    if (port < 0 || port > 65_535) {
      throw new IllegalArgumentException("dashboard port must be in 0..65535, was " + port);
    }
    InetAddress address = localAddress(bind);
    noDelay();
    ExecutorService executor = Executors.newFixedThreadPool(2, DashboardServer::daemon);
    try {
      HttpServer server = HttpServer.create(new InetSocketAddress(address, port), 0);
      String path = dashboard.settings().path();
      server.createContext(path, new DashboardHttpHandler(dashboard));
      server.setExecutor(executor);
      server.start();
      if (address.isAnyLocalAddress()) {
        LOG.warn("TaskQ dashboard listens on every interface ({})", server.getAddress());
      } else {
        LOG.info("TaskQ dashboard listens on http://{}{}", hostPort(server), path);
      }
      return new DashboardServer(server, executor, path);
    } catch (IOException e) {
      executor.shutdownNow();
      throw new UncheckedIOException("cannot bind the dashboard to " + bind + ":" + port, e);
    }
  }

  /** {@return the address and port actually bound} */
  public InetSocketAddress address() {
    return server.getAddress();
  }

  /** {@return the dashboard's root URI, e.g. {@code http://127.0.0.1:8080/taskq/}} */
  public URI uri() {
    String root = path.equals("/") ? "/" : path + "/";
    return URI.create("http://" + hostPort(server) + root);
  }

  /** Stops serving at once and releases the port and threads. */
  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }

  private static String hostPort(HttpServer server) {
    InetSocketAddress a = server.getAddress();
    String host = a.getAddress().getHostAddress();
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort();
  }

  /**
   * Asks the JDK's server for TCP_NODELAY (unless the application chose otherwise): it writes a
   * response's headers and body apart, and with Nagle's algorithm on, the body waits for the
   * client's delayed acknowledgement of the headers, 40 ms on Linux, on every page. The JDK reads
   * the property when its first server starts in the JVM, so it has effect when this is that one.
   */
  private static void noDelay() {
    if (System.getProperty(NO_DELAY) == null) {
      System.setProperty(NO_DELAY, "true");
    }
  }

  private static final String NO_DELAY = "sun.net.httpserver.nodelay";

  private static InetAddress localAddress(String bind) {
    return BindAddress.resolve(bind, "dashboard bind address " + bind, "");
  }

  private static Thread daemon(Runnable task) {
    Thread thread = new Thread(task, "taskq-dashboard");
    thread.setDaemon(true);
    return thread;
  }
}
