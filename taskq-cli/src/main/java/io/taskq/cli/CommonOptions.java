package io.taskq.cli;

import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/** The options every command takes: where the database is, which schema, and the output form. */
final class CommonOptions {
  @Option(
      names = "--database-url",
      paramLabel = "JDBC_URL",
      description = "JDBC URL of the database (default: TASKQ_DATABASE_URL).")
  @Nullable String databaseUrl;

  @Option(
      names = "--schema",
      paramLabel = "NAME",
      description = "TaskQ schema to operate (default: TASKQ_SCHEMA_NAME, else taskq).")
  @Nullable String schema;

  @Option(names = "--json", description = "Print JSON for scripts instead of tables.")
  boolean json;
}
