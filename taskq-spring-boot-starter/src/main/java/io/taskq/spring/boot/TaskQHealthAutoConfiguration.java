package io.taskq.spring.boot;

import io.taskq.TaskQ;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * The {@code taskq} health contributor (SB5), when Boot's health module is on the class path and
 * {@code management.health.taskq.enabled} is not false.
 */
@AutoConfiguration(after = TaskQAutoConfiguration.class)
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBean({TaskQ.class, TaskQLifecycle.class})
@ConditionalOnEnabledHealthIndicator("taskq")
public final class TaskQHealthAutoConfiguration {
  /** Created by Spring. */
  public TaskQHealthAutoConfiguration() {}

  /**
   * The {@code taskq} contributor; its bean name gives its id.
   *
   * @param taskq the engine
   * @param lifecycle the engine's lifecycle
   * @return the health contributor
   */
  @Bean(name = "taskqHealthIndicator")
  @ConditionalOnMissingBean(name = "taskqHealthIndicator")
  public TaskQHealthIndicator taskqHealthIndicator(TaskQ taskq, TaskQLifecycle lifecycle) {
    return new TaskQHealthIndicator(taskq, lifecycle);
  }
}
