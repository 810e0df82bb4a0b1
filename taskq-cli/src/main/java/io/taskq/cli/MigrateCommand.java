package io.taskq.cli;

import io.taskq.SchemaMigrationException;
import io.taskq.operations.AppliedMigration;
import io.taskq.operations.SchemaMigrations;
import io.taskq.operations.SchemaStatus;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code taskq migrate [--verify | --status]}: apply, check or list the schema's migrations. */
@Command(
    name = "migrate",
    mixinStandardHelpOptions = true,
    description = {
      "Apply the schema migrations this TaskQ ships (creating the schema when missing; needs"
          + " CREATE on the database or schema), or with --verify check that the schema is current"
          + " (exit 5 when not; a deploy gate), or with --status list what is applied.",
      "--verify and --status need no CREATE privilege and change nothing."
    })
final class MigrateCommand extends BaseCommand {
  @ArgGroup(exclusive = true)
  Mode mode = new Mode();

  /** At most one of --verify and --status. */
  static final class Mode {
    @Option(names = "--verify", description = "Check the schema is current; change nothing.")
    boolean verify;

    @Option(names = "--status", description = "List applied and pending migrations.")
    boolean status;
  }

  MigrateCommand(Session session) {
    super(session);
  }

  @Override
  int run() {
    SchemaMigrations migrations = taskq().migrations();
    if (mode.status) {
      print(migrations.status());
      return ExitCodes.OK;
    }
    if (mode.verify) {
      try {
        SchemaStatus status = migrations.verify();
        report("schema is current", status, List.of());
        return ExitCodes.OK;
      } catch (SchemaMigrationException e) {
        throw new CliException(ExitCodes.SCHEMA_NOT_CURRENT, String.valueOf(e.getMessage()), e);
      }
    }
    List<String> applied = migrations.apply();
    report(applied.isEmpty() ? "schema was current" : "applied", migrations.status(), applied);
    return ExitCodes.OK;
  }

  private void report(String what, SchemaStatus status, List<String> applied) {
    if (json()) {
      Map<String, Object> m = json(status);
      m.put("applied_now", applied);
      printJson(m);
      return;
    }
    session.out.println(
        what
            + (applied.isEmpty() ? "" : " " + String.join(", ", applied))
            + ": schema "
            + status.schema()
            + " at version "
            + status.currentVersion()
            + " of "
            + status.latestVersion());
  }

  private void print(SchemaStatus status) {
    if (json()) {
      printJson(json(status));
      return;
    }
    session.out.println(
        "schema "
            + status.schema()
            + ": version "
            + status.currentVersion()
            + " of "
            + status.latestVersion()
            + (status.isCurrent() ? " (current)" : " (" + status.pending().size() + " pending)"));
    appliedTable(status).print(session.out);
    status.pending().forEach(p -> session.out.println("pending  " + p));
  }

  private static Table appliedTable(SchemaStatus status) {
    Table t = new Table("VERSION", "NAME", "APPLIED AT", "CHECKSUM", "MATCHES");
    for (AppliedMigration m : status.applied()) {
      t.row(
          m.version(),
          m.name(),
          m.appliedAt(),
          m.checksum().substring(0, 12),
          m.checksumMatches() ? "yes" : "NO");
    }
    return t;
  }

  private static Map<String, Object> json(SchemaStatus status) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("schema", status.schema());
    m.put("current_version", status.currentVersion());
    m.put("latest_version", status.latestVersion());
    m.put("current", status.isCurrent());
    m.put("applied", status.applied().stream().map(MigrateCommand::json).toList());
    m.put("pending", status.pending());
    return m;
  }

  private static Map<String, Object> json(AppliedMigration a) {
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("version", a.version());
    row.put("name", a.name());
    row.put("checksum", a.checksum());
    row.put("applied_at", a.appliedAt());
    row.put("checksum_matches", a.checksumMatches());
    return row;
  }
}
