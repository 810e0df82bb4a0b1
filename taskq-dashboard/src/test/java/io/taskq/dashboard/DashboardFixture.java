package io.taskq.dashboard;

import io.taskq.Actor;
import io.taskq.TaskQ;
import io.taskq.TaskQConfig;
import io.taskq.testing.TestServices;
import java.net.URI;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * A running TaskQ on the test class's schema, with its dashboard served on a free loopback port.
 */
final class DashboardFixture implements AutoCloseable {
  static final String TOKEN = "correct-horse-battery-staple";

  /** Small, so that a bulk action of a few dozen jobs commits several batches. */
  static final int EVENT_WRITER_BATCH_SIZE = 10;

  /** While set, the {@link #ok} actor fails jobs whose payload says {@code "flaky": true}. */
  static final AtomicBoolean FLAKY_FAILS = new AtomicBoolean();

  final TaskQ taskq;
  final DashboardServer server;

  private DashboardFixture(TaskQ taskq, DashboardServer server) {
    this.taskq = taskq;
    this.server = server;
  }

  /** A started TaskQ with {@code actors}, and a dashboard with {@code settings}. */
  static DashboardFixture start(
      TestServices services, DashboardSettings settings, Consumer<TaskQ> actors)
      throws SQLException {
    TaskQConfig config =
        TaskQConfig.builder()
            .schemaName(services.schema())
            .pollInterval(Duration.ofMillis(100))
            .heartbeatInterval(Duration.ofMillis(500))
            .leasePeriod(Duration.ofSeconds(10))
            .shutdownGrace(Duration.ofSeconds(2))
            .sweepInterval(Duration.ofMillis(500))
            .eventWriterBatchSize(EVENT_WRITER_BATCH_SIZE)
            .build();
    TaskQ taskq = TaskQ.builder(services.dataSource()).config(config).build();
    try {
      actors.accept(taskq);
      taskq.start();
      DashboardServer server =
          DashboardServer.start(Dashboard.create(taskq, settings), "127.0.0.1", 0);
      return new DashboardFixture(taskq, server);
    } catch (RuntimeException | SQLException e) {
      taskq.close();
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
    return server.uri().resolve(route.substring(1));
  }

  @Override
  public void close() {
    try {
      server.close();
    } finally {
      taskq.close();
    }
  }
}
