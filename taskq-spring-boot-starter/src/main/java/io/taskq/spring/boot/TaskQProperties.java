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
  /** Whether to auto-configure TaskQ on the application's DataSource. */
  private boolean enabled = true;

  /** The maintenance leadership of this process. */
  private final Maintenance maintenance = new Maintenance();

  /** The queue gauges. */
  private final Metrics metrics = new Metrics();

  /** Whether to auto-configure TaskQ on the application's DataSource. */
  public boolean isEnabled() {
    return enabled;
  }

  /** Sets {@link #isEnabled()}. */
  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  /** The maintenance leadership of this process. */
  public Maintenance getMaintenance() {
    return maintenance;
  }

  /** The queue gauges. */
  public Metrics getMetrics() {
    return metrics;
  }

  /** {@code taskq.maintenance.*}. */
  public static class Maintenance {
    /**
     * Whether this process campaigns for the schema's maintenance leadership and runs the sweeps
     * and cron when elected. At least one process per schema must keep it on.
     */
    private boolean enabled = true;

    /** Whether this process may lead maintenance. */
    public boolean isEnabled() {
      return enabled;
    }

    /** Sets {@link #isEnabled()}. */
    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }
  }

  /** {@code taskq.metrics.*}. */
  public static class Metrics {
    /** How often the queue depth and oldest-pending-age gauges are read from the database. */
    private Duration samplePeriod = Duration.ofSeconds(15);

    /** How often the queue gauges are read. */
    public Duration getSamplePeriod() {
      return samplePeriod;
    }

    /** Sets {@link #getSamplePeriod()}; positive. */
    public void setSamplePeriod(Duration samplePeriod) {
      if (samplePeriod.isNegative() || samplePeriod.isZero()) {
        throw new IllegalArgumentException(
            "taskq.metrics.sample-period must be positive, was " + samplePeriod);
      }
      this.samplePeriod = samplePeriod;
    }
  }
}
