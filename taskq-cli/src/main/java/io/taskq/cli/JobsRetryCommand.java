package io.taskq.cli;

import io.taskq.operations.JobFilter;
import io.taskq.operations.Operations;
import io.taskq.operations.RetryResult;
import io.taskq.operations.RetryWhereResult;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code taskq jobs retry}: by id, or every failed / crashed / cancelled job of a filter. */
@Command(
    name = "retry",
    mixinStandardHelpOptions = true,
    description = {
      "Retry failed, crashed or cancelled jobs: the ids given, or every one matching the filters"
          + " (in committed batches, with a progress line).",
      "A retry keeps the attempt count and allows one more attempt when none is left.",
      "By filter, --dry-run counts the matching jobs first; --yes is needed to act."
    })
final class JobsRetryCommand extends BaseCommand {
  @Parameters(paramLabel = "ID", arity = "0..*", description = "Job ids to retry.")
  List<Long> ids = new ArrayList<>();

  @Mixin FilterOptions filters = new FilterOptions();

  @Option(names = "--all", description = "With no filter: every failed, crashed, cancelled job.")
  boolean all;

  @Option(names = "--dry-run", description = "Count what would be retried; change nothing.")
  boolean dryRun;

  @Option(names = "--yes", description = "Retry by filter without asking (scripts).")
  boolean yes;

  @Option(names = "--at", paramLabel = "TIME", description = "Run the retried job(s) at TIME.")
  @Nullable String at;

  @Option(names = "--by", paramLabel = "WHO", description = "Who retries (default: $USER).")
  @Nullable String by;

  JobsRetryCommand(Session session) {
    super(session);
  }

  @Override
  int run() {
    if (!ids.isEmpty()) {
      return retryIds(ops());
    }
    JobFilter filter = filters.filter(all);
    Operations ops = ops();
    if (dryRun || !yes) {
      long matching = BulkPreview.count(ops, BulkPreview.retryable(filter));
      session.out.println(matching + " jobs match" + (dryRun ? "" : "; pass --yes to retry them"));
      return dryRun ? ExitCodes.OK : ExitCodes.USAGE;
    }
    Progress progress = new Progress(session.err, "retried");
    RetryWhereResult r =
        ops.retryWhere(filter, Operator.of(by), p -> progress.batch(p.batches(), p.retried()));
    progress.done();
    report(r);
    return ExitCodes.OK;
  }

  private void report(RetryWhereResult r) {
    if (json()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("retried", r.retried());
      m.put("batches", r.batches());
      m.put("elapsed_ms", r.elapsed());
      printJson(m);
    } else {
      session.out.println(
          "retried " + r.retried() + " jobs in " + r.batches() + " batches, " + r.elapsed());
    }
  }

  private int retryIds(Operations ops) {
    Instant runAt = at == null ? null : Durations.instantAhead("--at", at);
    String who = Operator.of(by);
    int missing = 0;
    List<Object> results = new ArrayList<>();
    for (long id : ids) {
      RetryResult r = ops.retry(id, runAt, who);
      missing += r.outcome() == RetryResult.Outcome.NOT_FOUND ? 1 : 0;
      Map<String, Object> m = json(id, r);
      results.add(m);
      if (!json()) {
        session.out.println(line(id, m, r));
      }
    }
    if (json()) {
      printJson(results);
    }
    return missing > 0 ? ExitCodes.NOT_FOUND : ExitCodes.OK;
  }

  private static String line(long id, Map<String, Object> m, RetryResult r) {
    return "job "
        + id
        + ": "
        + m.get("outcome")
        + (r.status() == null ? "" : " (" + m.get("status") + ")");
  }

  private static Map<String, Object> json(long id, RetryResult r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", id);
    m.put("outcome", r.outcome().name().toLowerCase(java.util.Locale.ROOT));
    m.put("status", r.status() == null ? null : r.status().dbValue());
    m.put("run_at", r.runAt());
    return m;
  }
}
