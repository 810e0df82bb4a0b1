package io.taskq.postgres.internal.startup;

import io.taskq.TaskQConfig;

/**
 * The effective configuration as one start-up log event (P4): every setting, {@code
 * TASKQ_NAME=value (source)}, passwords masked by {@link TaskQConfig#describe()}. One event rather
 * than one line per setting, so a log search for it finds the whole picture.
 */
final class ConfigurationLog {
  private ConfigurationLog() {}

  static String describe(TaskQConfig config) {
    StringBuilder out =
        new StringBuilder("TaskQ configuration for schema ").append(config.schemaName().quoted());
    for (String line : config.describe()) {
      out.append("\n  ").append(line);
    }
    return out.toString();
  }
}
