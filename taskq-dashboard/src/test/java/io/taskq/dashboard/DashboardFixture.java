package io.taskq.dashboard;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.taskq.Actor;
import io.taskq.TaskQ;
import io.taskq.TaskQConfig;
import io.taskq.metrics.TaskQMetrics;
import io.taskq.metrics.TaskQObservability;
import io.taskq.testing.TestServices;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * A running TaskQ on the test class's schema, with its dashboard served on a free loopback port: on
 * a {@link DashboardServer} of its own ({@link #start}), or on taskq-metrics' HTTP endpoint beside
 * {@code /ready} and {@code /metrics} ({@link #onHttpEndpoint}).
 */
final class DashboardFixture implements AutoCloseable {
  static final String TOKEN = "correct-horse-battery-staple";

  /** Small, so that a bulk action of a few dozen jobs commits several batches. */
  static final int EVENT_WRITER_BATCH_SIZE = 10;

  /** While set, the {@link #ok} actor fails jobs whose payload says {@code "flaky": true}. */
  static final AtomicBoolean FLAKY_FAILS = new AtomicBoolean();

  final TaskQ taskq;

  /** The leader beside the dashboard's TaskQ ({@link #startBesideALeader}), or null. */
  @Nullable TaskQ leader;

  /** The dashboard's root, e.g. {@code http://127.0.0.1:40123/taskq/}. */
  final URI root;

  /** Stops what serves the dashboard (never the TaskQ). */
  private final Runnable server;

  private DashboardFixture(TaskQ taskq, URI root, Runnable server) {
    this.taskq = taskq;
    this.root = root;
    this.server = server;
  }

  private static TaskQConfig.Builder config(TestServices services) {
    return TaskQConfig.builder()
        .schemaName(services.schema())
        .pollInterval(Duration.ofMillis(100))
        .heartbeatInterval(Duration.ofMillis(500))
        .leasePeriod(Duration.ofSeconds(10))
        .shutdownGrace(Duration.ofSeconds(2))
        .sweepInterval(Duration.ofMillis(500))
        .eventWriterBatchSize(EVENT_WRITER_BATCH_SIZE);
  }

  /**
   * A started TaskQ with {@code actors}, observed by {@link TaskQObservability} on a free loopback
   * port with {@code TASKQ_HTTP_DASHBOARD=true}: the dashboard comes from the configuration only
   * ({@code settings} adds the {@code TASKQ_DASHBOARD_*} knobs, e.g. the token).
   */
  static DashboardFixture onHttpEndpoint(
      TestServices services, UnaryOperator<TaskQConfig.Builder> settings, Consumer<TaskQ> actors)
      throws Exception {
    int port;
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort();
    }
    TaskQConfig config =
        settings.apply(config(services).httpPort(port).httpDashboard(true)).build();
    TaskQMetrics metrics = new TaskQMetrics();
    TaskQ taskq =
        TaskQObservability.listen(TaskQ.builder(services.dataSource()), metrics)
            .config(config)
            .build();
    try {
      actors.accept(taskq);
      taskq.start();
      TaskQObservability observability =
          TaskQObservability.attach(
              taskq, metrics, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
      InetSocketAddress a = observability.endpointAddress().orElseThrow();
      URI root =
          URI.create(
              "http://"
                  + a.getAddress().getHostAddress()
                  + ":"
                  + a.getPort()
                  + config.dashboardPath()
                  + "/");
      return new DashboardFixture(taskq, root, observability::close);
    } catch (RuntimeException e) {
      taskq.close();
      throw e;
    }
  }

  /** A started TaskQ with {@code actors}, and a dashboard with {@code settings}. */
  static DashboardFixture start(
      TestServices services, DashboardSettings settings, Consumer<TaskQ> actors)
      throws SQLException {
    TaskQ taskq = TaskQ.builder(services.dataSource()).config(config(services).build()).build();
    try {
      actors.accept(taskq);
      taskq.start();
      DashboardServer server =
          DashboardServer.start(Dashboard.create(taskq, settings), "127.0.0.1", 0);
      return new DashboardFixture(taskq, server.uri(), server::close);
    } catch (RuntimeException | SQLException e) {
      taskq.close();
      throw e;
    }
  }

  /**
   * A started leader on the schema, then a started TaskQ with {@code actors} that never leads
   * (maintenance off) and serves the dashboard: the dashboard of a process that is not the leader.
   */
  static DashboardFixture startBesideALeader(
      TestServices services, DashboardSettings settings, Consumer<TaskQ> actors)
      throws SQLException {
    TaskQConfig config = config(services).build();
    TaskQ leader = TaskQ.builder(services.dataSource()).config(config).build();
    TaskQ taskq = null;
    try {
      leader.register(ok("leader-only"));
      leader.start();
      taskq = TaskQ.builder(services.dataSource()).config(config).maintenance(false).build();
      actors.accept(taskq);
      taskq.start();
      DashboardServer server =
          DashboardServer.start(Dashboard.create(taskq, settings), "127.0.0.1", 0);
      DashboardFixture fixture = new DashboardFixture(taskq, server.uri(), server::close);
      fixture.leader = leader;
      return fixture;
    } catch (RuntimeException | SQLException e) {
      if (taskq != null) {
        taskq.close();
      }
      leader.close();
      throw e;
    }
  }

  /** Settings signing in with {@link #TOKEN}. */
  static DashboardSettings tokenSettings() {
    return DashboardSettings.builder().token(TOKEN).build();
  }

  /** An actor that succeeds, unless its payload says {@code "fail": true}. */
  static Actor<String> ok(String name) {
    return Actor.rawJson(
        name,
        (json, ctx) -> {
          if (json.contains("\"fail\": true")) {
            throw new IllegalStateException("told to fail: <b>not bold</b>");
          }
          if (json.contains("\"flaky\": true") && FLAKY_FAILS.get()) {
            throw new IllegalStateException("upstream down <script>x()</script>");
          }
          return null;
        });
  }

  /** The dashboard URI of {@code route} (which starts with {@code /}). */
  URI uri(String route) {
    return root.resolve(route.substring(1));
  }

  @Override
  public void close() {
    try {
      server.run();
    } finally {
      taskq.close();
      if (leader != null) {
        leader.close();
      }
    }
  }
}
