package io.taskq.spring.boot;

import io.taskq.TaskQConfigException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Shows a bad TaskQ configuration at start-up as Boot shows its own: every problem (each {@code
 * taskq.*} property or {@code TASKQ_*} variable with its value, origin and allowed range), then
 * what to do.
 */
final class TaskQConfigFailureAnalyzer extends AbstractFailureAnalyzer<TaskQConfigException> {
  @Override
  protected FailureAnalysis analyze(Throwable rootFailure, TaskQConfigException cause) {
    return new FailureAnalysis(
        cause.getMessage(),
        "Fix the settings listed above, in application.properties / application.yml (taskq.*) or"
            + " in the environment (TASKQ_*). Every setting is described in"
            + " docs/configuration.md; docs/spring-boot.md explains how the two are combined.",
        cause);
  }
}
