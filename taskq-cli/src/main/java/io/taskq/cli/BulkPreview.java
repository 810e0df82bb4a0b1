package io.taskq.cli;

import io.taskq.JobStatus;
import io.taskq.operations.JobFilter;
import io.taskq.operations.JobPage;
import io.taskq.operations.Operations;
import java.util.EnumSet;
import java.util.Set;

/** Counts what a bulk operation would act on, by paging the search (at most 100 000 jobs). */
final class BulkPreview {
  private static final int PAGE = 1000;
  private static final int MAX_PAGES = 100;

  private BulkPreview() {}

  /** The filter narrowed to the statuses a retry acts on. */
  static JobFilter retryable(JobFilter filter) {
    Set<JobStatus> wanted = EnumSet.of(JobStatus.FAILED, JobStatus.CRASHED, JobStatus.CANCELLED);
    if (!filter.statuses().isEmpty()) {
      wanted.retainAll(filter.statuses());
    }
    JobFilter.Builder b = JobFilter.builder().statuses(wanted.toArray(new JobStatus[0]));
    b.actors(filter.actors().toArray(new String[0]));
    b.queues(filter.queues().toArray(new String[0]));
    b.errorClasses(filter.errorClasses().toArray(new String[0]));
    filter.labels().forEach(b::label);
    if (filter.createdFrom() != null || filter.createdTo() != null) {
      b.createdBetween(filter.createdFrom(), filter.createdTo());
    }
    if (filter.finishedFrom() != null || filter.finishedTo() != null) {
      b.finishedBetween(filter.finishedFrom(), filter.finishedTo());
    }
    return b.build();
  }

  static long count(Operations ops, JobFilter filter) {
    JobPage page = ops.search(filter, PAGE);
    long n = page.jobs().size();
    for (int i = 1; i < MAX_PAGES && page.hasMore(); i++) {
      page = ops.search(filter, PAGE, page.nextCursor().getAsLong());
      n += page.jobs().size();
    }
    return n;
  }
}
