package io.taskq.spring.boot;

import io.taskq.TaskQConfig;

/**
 * Changes the settings the starter builds from {@code taskq.*} properties and {@code TASKQ_*}
 * variables, in code, before they are checked: a setter called here wins over both. Declare one or
 * more as beans; they run in {@code @Order}.
 *
 * <pre>{@code
 * @Bean
 * TaskQConfigCustomizer moreWorkers() {
 *   return builder -> builder.workerConcurrency(32);
 * }
 * }</pre>
 */
@FunctionalInterface
public interface TaskQConfigCustomizer {
  /**
   * Adjusts {@code builder}; problems surface together with every other one at start-up.
   *
   * @param builder the settings' builder, the properties already applied
   */
  void customize(TaskQConfig.Builder builder);
}
