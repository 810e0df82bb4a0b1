package io.taskq.spring.boot;

import io.taskq.TaskQ;
import io.taskq.spi.MaintenanceHealth;
import java.sql.SQLException;
import java.time.Duration;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * The Actuator health of TaskQ (SB5), id {@code taskq}: DOWN when the engine is not running or the
 * database does not answer within 2 seconds; OUT_OF_SERVICE while it shuts down; UP otherwise, with
 * the maintenance view as details ({@code degraded} and its reasons, whether this process leads). A
 * degraded maintenance is a detail for operators, never DOWN: it is not a reason to restart the
 * process or to take it out of the load balancer. Not part of liveness; include it in readiness
 * with {@code management.endpoint.health.group.readiness.include=readinessState,taskq}.
 */
public final class TaskQHealthIndicator extends AbstractHealthIndicator {
  /** How long the database check may take. */
  public static final Duration DATABASE_CHECK_TIMEOUT = Duration.ofSeconds(2);

  private final TaskQ taskq;
  private final TaskQLifecycle lifecycle;

  /**
   * The health of {@code taskq}, whose life {@code lifecycle} runs.
   *
   * @param taskq the engine whose health is reported
   * @param lifecycle the lifecycle that starts and stops it
   */
  public TaskQHealthIndicator(TaskQ taskq, TaskQLifecycle lifecycle) {
    super("TaskQ health check failed");
    this.taskq = taskq;
    this.lifecycle = lifecycle;
  }

  @Override
  protected void doHealthCheck(Health.Builder builder) {
    TaskQLifecycle.State state = lifecycle.state();
    builder.withDetail("state", state.name().toLowerCase(java.util.Locale.ROOT));
    if (state == TaskQLifecycle.State.STOPPING) {
      builder.outOfService();
      return;
    }
    if (state != TaskQLifecycle.State.RUNNING && state != TaskQLifecycle.State.PRODUCER_ONLY) {
      builder.down();
      return;
    }
    try {
      taskq.checkDatabase(DATABASE_CHECK_TIMEOUT);
    } catch (SQLException | RuntimeException e) {
      builder.down(e);
      return;
    }
    MaintenanceHealth.Report report = taskq.health();
    builder
        .up()
        .withDetail("schema", taskq.schema().value())
        .withDetail("leader", taskq.isLeader())
        .withDetail("degraded", report.degraded())
        .withDetail("reasons", report.reasons());
  }
}
