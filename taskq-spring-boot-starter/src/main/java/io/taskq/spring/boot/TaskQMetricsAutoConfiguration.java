package io.taskq.spring.boot;

import io.micrometer.core.instrument.MeterRegistry;
import io.taskq.TaskQ;
import io.taskq.metrics.TaskQMetrics;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * TaskQ's meters on the application's own {@link MeterRegistry}, whatever its type (SB5). The
 * {@link TaskQMetrics} binding and the {@link TaskQQueueGauges} are contributed as {@code
 * MeterBinder} beans and nothing more: Boot binds each once, after its customizers and filters. The
 * starter never calls {@code bindTo} itself, which is what made a hand-wired binding fail at
 * start-up ("already bound"). {@code TaskQMetrics} is also the engine's maintenance and job
 * listener, and its {@code is_leader} gauge reads {@link TaskQ#isLeader()} at every scrape (R6), as
 * {@code TaskQObservability.attach} makes it outside Spring. Applies when Micrometer is on the
 * class path and the application has a registry.
 */
@AutoConfiguration(
    after = TaskQAutoConfiguration.class,
    afterName = {
      "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
      "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
      "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration"
    })
@ConditionalOnClass({MeterRegistry.class, TaskQMetrics.class})
@ConditionalOnBean({MeterRegistry.class, TaskQ.class})
public final class TaskQMetricsAutoConfiguration {
  /** Created by Spring. */
  public TaskQMetricsAutoConfiguration() {}

  /** {@return the binding of TaskQ's signals, and the engine's listener} */
  @Bean
  @ConditionalOnMissingBean
  public TaskQMetrics taskQMetrics() {
    return new TaskQMetrics();
  }

  /**
   * Gives the binding its leader probe once every bean exists (it cannot take the engine as a
   * constructor argument: the engine takes the binding as its listener): the {@code is_leader}
   * gauge then reports leadership only while the engine proves it (R6), never the last {@code
   * leaderChanged} signal. Applies to the application's own {@code TaskQMetrics} bean too.
   *
   * @param taskq the engine whose {@link TaskQ#isLeader()} the gauge reads
   * @param metrics the binding, when there is exactly one
   * @return the callback that installs the probe
   */
  @Bean
  public SmartInitializingSingleton taskQLeaderProbe(
      TaskQ taskq, ObjectProvider<TaskQMetrics> metrics) {
    return () -> metrics.ifUnique(m -> m.leaderProbe(taskq::isLeader));
  }

  /**
   * The queue depth and oldest-pending-age gauges.
   *
   * @param taskq the engine whose queues are read
   * @param properties the starter's properties, which give the sample period
   * @return the gauges
   */
  @Bean
  @ConditionalOnMissingBean
  public TaskQQueueGauges taskQQueueGauges(TaskQ taskq, TaskQProperties properties) {
    return new TaskQQueueGauges(taskq, properties.getMetrics().getSamplePeriod());
  }
}
