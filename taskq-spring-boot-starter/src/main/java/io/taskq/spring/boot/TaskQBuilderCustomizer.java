package io.taskq.spring.boot;

import io.taskq.TaskQ;

/**
 * Changes the {@link TaskQ.Builder} the starter prepares (data source, settings, listeners) before
 * it builds the engine: queue concurrency caps, a handler executor, rate limiters, a progress
 * store. Declare one or more as beans; they run in {@code @Order}. To replace the engine
 * altogether, declare a {@link TaskQ} bean instead.
 */
@FunctionalInterface
public interface TaskQBuilderCustomizer {
  /**
   * Adjusts {@code builder}.
   *
   * @param builder the engine's builder, its settings already applied
   */
  void customize(TaskQ.Builder builder);
}
