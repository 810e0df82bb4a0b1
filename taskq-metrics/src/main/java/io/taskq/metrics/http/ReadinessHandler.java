package io.taskq.metrics.http;

import io.taskq.core.spi.MaintenanceHealth;
import java.util.Objects;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /ready}: the O7 readiness view.
 *
 * <p>The verdict is 503 only while the process is starting or stopping, or when the database check
 * fails; otherwise 200. The {@code maintenance} object ({@link MaintenanceHealth.Report#toJson()})
 * rides in the body either way, and {@code degraded: true} never turns the verdict into a 503: it
 * means "up, but sweeps are unhealthy", an operator signal, and failing the probe for it would pull
 * healthy dispatchers out of service while fixing nothing (guide "What degradation looks like").
 *
 * <p>Body: {@code {"status":"ready"|"not_ready","state":"running","database":"reachable",
 * "maintenance":{...}}}; {@code database} is {@code reachable}, {@code unreachable} or {@code
 * unchecked} (not checked while starting or stopping). A failed check's message is never put in the
 * body or the log (it may carry a connection string); the log names its exception class only.
 */
public final class ReadinessHandler implements EndpointHandler {
  private static final Logger LOG = LoggerFactory.getLogger(ReadinessHandler.class);

  private final MaintenanceHealth health;
  private final Supplier<ProcessState> state;
  private final DatabaseCheck database;

  /**
   * A handler reading the given view, lifecycle state and database check.
   *
   * @param health the maintenance view TaskQ feeds (also registered as its maintenance listener)
   * @param state the process's lifecycle state now
   * @param database the reachability check; {@link DatabaseCheck#NONE} for none
   */
  public ReadinessHandler(
      MaintenanceHealth health, Supplier<ProcessState> state, DatabaseCheck database) {
    this.health = Objects.requireNonNull(health, "health");
    this.state = Objects.requireNonNull(state, "state");
    this.database = Objects.requireNonNull(database, "database");
  }

  @Override
  public HttpReply respond() {
    ProcessState now = state.get();
    String db = now == ProcessState.RUNNING ? ping() : "unchecked";
    boolean ready = now == ProcessState.RUNNING && db.equals("reachable");
    String body =
        "{\"status\":\""
            + (ready ? "ready" : "not_ready")
            + "\",\"state\":\""
            + now.label()
            + "\",\"database\":\""
            + db
            + "\",\"maintenance\":"
            + health.report().toJson()
            + "}";
    return new HttpReply(ready ? 200 : 503, HttpReply.JSON, body);
  }

  private String ping() {
    try {
      database.ping();
      return "reachable";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "unreachable";
    } catch (Exception e) {
      LOG.warn("Readiness database check failed ({})", e.getClass().getName());
      return "unreachable";
    }
  }
}
