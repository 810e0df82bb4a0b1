package io.taskq.spring.boot;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The starter's own {@code taskq.*} properties, the ones that are not TaskQ settings. The settings
 * themselves ({@code taskq.claim-batch-size}, {@code taskq.shutdown-grace}, ...) are read through
 * the knob catalog by {@link SpringSettings}; their IDE metadata comes from {@code
 * additional-spring-configuration-metadata.json}.
 */
@ConfigurationProperties(prefix = "taskq")
public class TaskQProperties {
  /** The defaults, bound from {@code taskq.*} by Spring. */
  public TaskQProperties() {}

  /** Whether to auto-configure TaskQ on the application's DataSource. */
  private boolean enabled = true;

  /** The maintenance leadership of this process. */
  private final Maintenance maintenance = new Maintenance();

  /** The queue gauges. */
  private final Metrics metrics = new Metrics();

  /** The dashboard mounted in the application's servlet container. */
  private final Dashboard dashboard = new Dashboard();

  /** OpenTelemetry tracing of enqueues and attempts. */
  private final Tracing tracing = new Tracing();

  /** {@return whether to auto-configure TaskQ on the application's DataSource} */
  public boolean isEnabled() {
    return enabled;
  }

  /**
   * Sets {@link #isEnabled()}.
   *
   * @param enabled whether to auto-configure TaskQ
   */
  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  /** {@return the settings of this process's maintenance leadership} */
  public Maintenance getMaintenance() {
    return maintenance;
  }

  /** {@return the settings of the queue gauges} */
  public Metrics getMetrics() {
    return metrics;
  }

  /** {@return the settings of the dashboard mounted in the application's servlet container} */
  public Dashboard getDashboard() {
    return dashboard;
  }

  /** {@return the settings of OpenTelemetry tracing} */
  public Tracing getTracing() {
    return tracing;
  }

  /**
   * {@code taskq.tracing.*}: whether the starter registers taskq-opentelemetry's interceptors when
   * the module is on the class path and the application has an {@code OpenTelemetry} bean.
   */
  public static class Tracing {
    /** The default tracing settings, bound from {@code taskq.*} by Spring. */
    public Tracing() {}

    /**
     * Whether to trace TaskQ jobs with the application's OpenTelemetry bean (taskq-opentelemetry on
     * the class path): a span for each enqueue and each attempt, linked by trace context carried in
     * the job's labels.
     */
    private boolean enabled = true;

    /** {@return whether to trace TaskQ jobs} */
    public boolean isEnabled() {
      return enabled;
    }

    /**
     * Sets {@link #isEnabled()}.
     *
     * @param enabled whether to trace TaskQ jobs
     */
    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }
  }

  /**
   * {@code taskq.dashboard.*}: whether to mount the dashboard; its path, credentials and read-only
   * mode are the {@code taskq.dashboard-*} settings of the catalog.
   */
  public static class Dashboard {
    /** The default dashboard settings, bound from {@code taskq.*} by Spring. */
    public Dashboard() {}

    /**
     * Whether to mount the TaskQ dashboard (taskq-dashboard on the class path) in this servlet
     * application, under taskq.dashboard-path.
     */
    private boolean enabled = false;

    /**
     * With Spring Security: the authority a signed-in user needs to act (retry, cancel, pause);
     * other signed-in users see read-only pages.
     */
    private String operatorAuthority = "ROLE_TASKQ_OPERATOR";

    /** {@return whether to mount the dashboard} */
    public boolean isEnabled() {
      return enabled;
    }

    /**
     * Sets {@link #isEnabled()}.
     *
     * @param enabled whether to mount the dashboard
     */
    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    /** {@return the authority that may act, with Spring Security} */
    public String getOperatorAuthority() {
      return operatorAuthority;
    }

    /**
     * Sets {@link #getOperatorAuthority()}.
     *
     * @param operatorAuthority the authority that may act
     */
    public void setOperatorAuthority(String operatorAuthority) {
      this.operatorAuthority = operatorAuthority;
    }
  }

  /** {@code taskq.maintenance.*}. */
  public static class Maintenance {
    /** The default maintenance settings, bound from {@code taskq.*} by Spring. */
    public Maintenance() {}

    /**
     * Whether this process campaigns for the schema's maintenance leadership and runs the sweeps
     * and cron when elected. At least one process per schema must keep it on.
     */
    private boolean enabled = true;

    /** {@return whether this process may lead maintenance} */
    public boolean isEnabled() {
      return enabled;
    }

    /**
     * Sets {@link #isEnabled()}.
     *
     * @param enabled whether this process may lead maintenance
     */
    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }
  }

  /** {@code taskq.metrics.*}. */
  public static class Metrics {
    /** The default gauge settings, bound from {@code taskq.*} by Spring. */
    public Metrics() {}

    /** How often the queue depth and oldest-pending-age gauges are read from the database. */
    private Duration samplePeriod = Duration.ofSeconds(15);

    /** {@return how often the queue gauges are read} */
    public Duration getSamplePeriod() {
      return samplePeriod;
    }

    /**
     * Sets {@link #getSamplePeriod()}; positive.
     *
     * @param samplePeriod how often the queue gauges are read
     */
    public void setSamplePeriod(Duration samplePeriod) {
      if (samplePeriod.isNegative() || samplePeriod.isZero()) {
        throw new IllegalArgumentException(
            "taskq.metrics.sample-period must be positive, was " + samplePeriod);
      }
      this.samplePeriod = samplePeriod;
    }
  }
}
