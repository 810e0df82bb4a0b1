package io.taskq.cli;

import io.taskq.operations.JobPage;
import io.taskq.operations.JobSummary;
import io.taskq.operations.Operations;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code taskq jobs list}: the newest jobs matching the filters, one page. */
@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    description = "The newest jobs matching the filters, newest first, one page at a time.")
final class JobsListCommand extends BaseCommand {
  @Mixin FilterOptions filters = new FilterOptions();

  @Option(
      names = "--limit",
      defaultValue = "50",
      description = "Jobs per page, 1..1000 (default: ${DEFAULT-VALUE}).")
  int limit;

  @Option(
      names = "--cursor",
      paramLabel = "ID",
      description = "Start below this job id (the 'next' cursor of the previous page).")
  @Nullable Long cursor;

  JobsListCommand(Session session) {
    super(session);
  }

  @Override
  int run() {
    Operations ops = ops();
    JobPage page =
        cursor == null
            ? ops.search(filters.filter(false), limit)
            : ops.search(filters.filter(false), limit, cursor);
    if (json()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("jobs", page.jobs().stream().map(Rendering::job).toList());
      m.put("next_cursor", page.hasMore() ? page.nextCursor().getAsLong() : null);
      printJson(m);
      return ExitCodes.OK;
    }
    table(page).print(session.out);
    session.out.println(
        page.jobs().size()
            + " jobs"
            + (page.hasMore() ? "; next page: --cursor " + page.nextCursor().getAsLong() : ""));
    return ExitCodes.OK;
  }

  private static Table table(JobPage page) {
    Table t = new Table("ID", "ACTOR", "QUEUE", "STATUS", "ATTEMPT", "AGE", "ERROR");
    Instant now = Instant.now();
    for (JobSummary j : page.jobs()) {
      t.row(
          j.id(),
          j.actor(),
          j.queue(),
          j.status().dbValue() + (j.archived() ? " (archived)" : ""),
          j.attempt() + "/" + j.maxAttempts(),
          AgeText.human(Duration.between(j.createdAt(), now)),
          j.errorClass() == null ? "" : j.errorClass() + ": " + j.errorMessage());
    }
    return t;
  }
}
