package io.taskq.cli;

import io.taskq.TaskQ;
import io.taskq.TaskQConfig;
import io.taskq.TaskQConfigException;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One run of the CLI: its environment, its streams, and the producer-only TaskQ it opens on first
 * use (no actors, no workers, no maintenance, no migration: the CLI only reads and operates).
 */
final class Session implements AutoCloseable {
  final PrintStream out;
  final PrintStream err;
  private final Map<String, String> env;
  private @Nullable TaskQ taskq;

  Session(Map<String, String> env, PrintStream out, PrintStream err) {
    this.env = Map.copyOf(env);
    this.out = out;
    this.err = err;
  }

  /** The settings: the TASKQ_* environment with the command's flags on top. */
  TaskQConfig config(CommonOptions options) {
    Map<String, String> settings = new HashMap<>(env);
    if (options.databaseUrl != null) {
      settings.put("TASKQ_DATABASE_URL", options.databaseUrl);
    }
    if (options.schema != null) {
      settings.put("TASKQ_SCHEMA_NAME", options.schema);
    }
    if (settings.getOrDefault("TASKQ_DATABASE_URL", "").isBlank()) {
      throw new CliException(
          ExitCodes.UNREACHABLE,
          "no database: set TASKQ_DATABASE_URL (a JDBC URL such as"
              + " jdbc:postgresql://127.0.0.1:5432/app?user=taskq) or pass --database-url");
    }
    try {
      return TaskQConfig.fromEnv(settings);
    } catch (TaskQConfigException e) {
      throw new CliException(ExitCodes.USAGE, "bad setting: " + e.getMessage(), e);
    }
  }

  /** The TaskQ of this run, opened once. */
  TaskQ taskq(CommonOptions options) {
    TaskQ open = taskq;
    if (open == null) {
      TaskQConfig config = config(options);
      open = TaskQ.builder().config(config).migrate(false).maintenance(false).build();
      taskq = open;
    }
    return open;
  }

  @Override
  public void close() {
    TaskQ open = taskq;
    taskq = null;
    if (open != null) {
      open.close();
    }
  }
}
