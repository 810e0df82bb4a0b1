package io.taskq.cli;

import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code taskq} command line (A8): {@code migrate}, {@code status}, {@code jobs}, {@code
 * queues}, {@code actors} and {@code schedules}, over the public operations API, configured by the
 * same {@code TASKQ_*} settings as the library plus flags. {@code docs/cli.md} lists the commands,
 * the JSON shapes and the exit codes.
 */
@Command(
    name = "taskq",
    mixinStandardHelpOptions = true,
    versionProvider = CliVersion.class,
    description = {
      "Operate a TaskQ schema: migrations, status, jobs, queues, actors, schedules.",
      "Settings come from the TASKQ_* environment (TASKQ_DATABASE_URL, TASKQ_SCHEMA_NAME, ...);"
          + " --database-url and --schema override them. Tables by default, --json for scripts."
    },
    footer = {
      "",
      "Exit codes: 0 done; 1 the database failed a statement; 2 bad usage or input; 3 not found;"
          + " 4 no database configured or reachable; 5 schema not current (run taskq migrate)."
    },
    subcommands = {
      MigrateCommand.class,
      StatusCommand.class,
      JobsCommand.class,
      QueuesCommand.class,
      ActorsCommand.class,
      SchedulesCommand.class
    })
public final class TaskQCli extends Group {
  private TaskQCli() {}

  /** Runs the CLI and exits with its code. */
  public static void main(String[] args) {
    System.exit(run(args, System.getenv(), System.out, System.err));
  }

  /**
   * Runs the CLI in-process (tests, embedding) with {@code env} as its environment.
   *
   * @return the exit code (docs/cli.md)
   */
  public static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err) {
    try (Session session = new Session(env, out, err)) {
      CommandLine cli = new CommandLine(new TaskQCli(), new CommandFactory(session));
      cli.setOut(new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), true));
      cli.setErr(new PrintWriter(new OutputStreamWriter(err, StandardCharsets.UTF_8), true));
      return cli.execute(args);
    }
  }
}
