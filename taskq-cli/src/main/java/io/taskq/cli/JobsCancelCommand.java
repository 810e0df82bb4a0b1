package io.taskq.cli;

import io.taskq.JobStatus;
import io.taskq.JobsClient;
import io.taskq.bulk.BulkCancelResult;
import io.taskq.bulk.CancelFilter;
import io.taskq.bulk.CancelResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code taskq jobs cancel}: by id, or every open job of a filter (S13, in committed batches). */
@Command(
    name = "cancel",
    mixinStandardHelpOptions = true,
    description = {
      "Cancel jobs: the ids given, or every open (scheduled, pending, running) job matching"
          + " --actor, --queue, --label and --status, in committed batches.",
      "A running job gets a cancel request its handler observes.",
      "By filter, --yes is needed to act."
    })
final class JobsCancelCommand extends BaseCommand {
  @Parameters(paramLabel = "ID", arity = "0..*", description = "Job ids to cancel.")
  List<Long> ids = new ArrayList<>();

  @Mixin FilterOptions filters = new FilterOptions();

  @Option(names = "--yes", description = "Cancel by filter without asking (scripts).")
  boolean yes;

  @Option(
      names = "--by",
      paramLabel = "WHO",
      description = "Who cancels, noted on each cancelled job's event (default: $USER).")
  @Nullable String by;

  JobsCancelCommand(Session session) {
    super(session);
  }

  @Override
  int run() {
    JobsClient jobs = taskq().jobs();
    if (!ids.isEmpty()) {
      return cancelIds(jobs);
    }
    if (!filters.errorClasses.isEmpty()
        || filters.createdAfter != null
        || filters.createdBefore != null
        || filters.finishedAfter != null
        || filters.finishedBefore != null) {
      throw new IllegalArgumentException(
          "jobs cancel filters by --actor, --queue, --label and --status only");
    }
    CancelFilter filter = cancelFilter();
    if (!yes) {
      throw new IllegalArgumentException(
          "cancelling by filter changes many jobs: pass --yes to cancel what "
              + filter
              + " matches");
    }
    Progress progress = new Progress(session.err, "cancelled");
    BulkCancelResult r =
        jobs.cancelWhere(filter, Operator.of(by), p -> progress.batch(p.batches(), p.cancelled()));
    progress.done();
    if (json()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("cancelled", r.cancelled());
      m.put("cancel_requested", r.cancelRequested());
      m.put("batches", r.batches());
      printJson(m);
    } else {
      session.out.println(
          "cancelled "
              + r.cancelled()
              + " jobs, requested "
              + r.cancelRequested()
              + " running jobs to stop, in "
              + r.batches()
              + " batches");
    }
    return ExitCodes.OK;
  }

  private CancelFilter cancelFilter() {
    CancelFilter.Builder b = CancelFilter.builder();
    b.actors(filters.actors.toArray(new String[0]));
    b.queues(filters.queues.toArray(new String[0]));
    for (String label : filters.labels) {
      int eq = label.indexOf('=');
      if (eq < 1) {
        throw new IllegalArgumentException("--label must be KEY=VALUE, got '" + label + "'");
      }
      b.label(label.substring(0, eq), label.substring(eq + 1));
    }
    List<JobStatus> statuses = filters.statuses();
    if (!statuses.isEmpty()) {
      b.statuses(statuses.toArray(new JobStatus[0]));
    }
    return b.build();
  }

  private int cancelIds(JobsClient jobs) {
    String who = Operator.of(by);
    int missing = 0;
    List<Object> results = new ArrayList<>();
    for (long id : ids) {
      CancelResult r = jobs.cancel(id, who);
      missing += r == CancelResult.NOT_FOUND ? 1 : 0;
      String outcome = r.name().toLowerCase(Locale.ROOT);
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("id", id);
      m.put("outcome", outcome);
      results.add(m);
      if (!json()) {
        session.out.println("job " + id + ": " + outcome);
      }
    }
    if (json()) {
      printJson(results);
    }
    return missing > 0 ? ExitCodes.NOT_FOUND : ExitCodes.OK;
  }
}
