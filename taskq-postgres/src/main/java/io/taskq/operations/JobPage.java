package io.taskq.operations;

import java.util.List;
import java.util.OptionalLong;

/**
 * One page of a job search (A1), newest job first.
 *
 * @param jobs the jobs of this page, by id descending
 * @param nextCursor the cursor of the next page (pass it to {@link Operations#search(JobFilter,
 *     int, long)}), empty on the last page
 */
public record JobPage(List<JobSummary> jobs, OptionalLong nextCursor) {

  /**
   * Copies the list.
   *
   * @param jobs the jobs of this page, by id descending
   * @param nextCursor the cursor of the next page (pass it to {@link Operations#search(JobFilter,
   *     int, long)}), empty on the last page
   */
  public JobPage {
    jobs = List.copyOf(jobs);
  }

  /** {@return whether a next page may hold more jobs} */
  public boolean hasMore() {
    return nextCursor.isPresent();
  }
}
