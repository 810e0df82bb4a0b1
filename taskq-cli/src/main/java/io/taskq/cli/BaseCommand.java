package io.taskq.cli;

import io.taskq.TaskQ;
import io.taskq.operations.Operations;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;

/** A leaf command: runs against the session's TaskQ and maps its errors (docs/cli.md). */
abstract class BaseCommand implements Callable<Integer> {
  final Session session;

  @Mixin CommonOptions common = new CommonOptions();

  BaseCommand(Session session) {
    this.session = session;
  }

  /** Does the work; returns the exit code. */
  abstract int run() throws Exception;

  @Override
  public final Integer call() {
    try {
      return run();
    } catch (Exception e) {
      CliException mapped = Errors.map(e, databaseUrl(), schemaName());
      session.err.println("taskq: " + mapped.getMessage());
      return mapped.exitCode();
    }
  }

  private String databaseUrl() {
    return common.databaseUrl != null
        ? common.databaseUrl
        : System.getenv().getOrDefault("TASKQ_DATABASE_URL", "");
  }

  private String schemaName() {
    try {
      return session.config(common).schemaName().value();
    } catch (RuntimeException e) {
      return common.schema == null ? "taskq" : common.schema;
    }
  }

  TaskQ taskq() {
    return session.taskq(common);
  }

  Operations ops() {
    return taskq().operations();
  }

  boolean json() {
    return common.json;
  }

  void printJson(Object value) {
    session.out.println(Json.write(value));
  }
}
