package io.taskq.cli;

import io.taskq.JobStatus;
import io.taskq.operations.JobFilter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/** The A1 filters of {@code jobs list}, {@code jobs retry} and {@code jobs cancel}. */
final class FilterOptions {
  @Option(
      names = "--status",
      split = ",",
      paramLabel = "STATUS",
      description =
          "scheduled, pending, running, succeeded, failed, crashed or cancelled (repeat or"
              + " comma-separate for several).")
  List<String> statuses = new ArrayList<>();

  @Option(names = "--actor", split = ",", paramLabel = "ACTOR", description = "Actor name(s).")
  List<String> actors = new ArrayList<>();

  @Option(names = "--queue", split = ",", paramLabel = "QUEUE", description = "Queue name(s).")
  List<String> queues = new ArrayList<>();

  @Option(
      names = "--label",
      paramLabel = "KEY=VALUE",
      description = "A label the job carries (repeat for several; all must match).")
  List<String> labels = new ArrayList<>();

  @Option(
      names = "--error-class",
      split = ",",
      paramLabel = "CLASS",
      description = "The last error's class, e.g. java.net.ConnectException.")
  List<String> errorClasses = new ArrayList<>();

  @Option(
      names = "--created-after",
      paramLabel = "TIME",
      description = "Created at or after: an ISO instant or an age (90s, 15m, 2h, 7d).")
  @Nullable String createdAfter;

  @Option(names = "--created-before", paramLabel = "TIME", description = "Created before.")
  @Nullable String createdBefore;

  @Option(names = "--finished-after", paramLabel = "TIME", description = "Finished at or after.")
  @Nullable String finishedAfter;

  @Option(names = "--finished-before", paramLabel = "TIME", description = "Finished before.")
  @Nullable String finishedBefore;

  @Option(names = "--archived", description = "Search the archive (pruned jobs) too.")
  boolean archived;

  /** The statuses as typed, parsed. */
  List<JobStatus> statuses() {
    List<JobStatus> out = new ArrayList<>();
    for (String s : statuses) {
      out.add(JobStatus.fromDb(s.trim().toLowerCase(Locale.ROOT)));
    }
    return out;
  }

  /**
   * The filter these options describe.
   *
   * @param everything start from {@link JobFilter#everything()} (a bulk operation's --all)
   * @throws IllegalArgumentException naming the option when a value is bad
   */
  JobFilter filter(boolean everything) {
    JobFilter.Builder b = everything ? JobFilter.everything() : JobFilter.builder();
    b.statuses(statuses().toArray(new JobStatus[0]));
    b.actors(actors.toArray(new String[0]));
    b.queues(queues.toArray(new String[0]));
    b.errorClasses(errorClasses.toArray(new String[0]));
    addLabels(b);
    if (createdAfter != null || createdBefore != null) {
      b.createdBetween(
          createdAfter == null ? null : Durations.instant("--created-after", createdAfter),
          createdBefore == null ? null : Durations.instant("--created-before", createdBefore));
    }
    if (finishedAfter != null || finishedBefore != null) {
      b.finishedBetween(
          finishedAfter == null ? null : Durations.instant("--finished-after", finishedAfter),
          finishedBefore == null ? null : Durations.instant("--finished-before", finishedBefore));
    }
    if (archived) {
      b.includeArchived();
    }
    return b.build();
  }

  private void addLabels(JobFilter.Builder b) {
    for (String label : labels) {
      int eq = label.indexOf('=');
      if (eq < 1) {
        throw new IllegalArgumentException("--label must be KEY=VALUE, got '" + label + "'");
      }
      b.label(label.substring(0, eq), label.substring(eq + 1));
    }
  }
}
