package io.taskq.postgres.internal.operations;

import io.taskq.JobStatus;
import io.taskq.operations.JobFilter;
import io.taskq.postgres.internal.JsonWriter;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The bound values of one bulk retry (A3): what {@code retry_where} matches, fixed when it starts.
 *
 * @param maxId the highest job id when the operation started (F1)
 * @param startedAt the database clock when it started: only jobs finished before it match
 * @param statuses the retryable statuses asked for, as stored
 */
record RetryCriteria(
    long maxId, Instant startedAt, List<String> statuses, JobFilter filter, String note) {
  /** The statuses a retry acts on. */
  static final Set<JobStatus> RETRYABLE =
      EnumSet.of(JobStatus.FAILED, JobStatus.CRASHED, JobStatus.CANCELLED);

  /**
   * The retryable statuses {@code filter} asks for: all three when it names none.
   *
   * @throws IllegalArgumentException when it names statuses and none is retryable
   */
  static List<String> statusesOf(JobFilter filter) {
    if (filter.statuses().isEmpty()) {
      return RETRYABLE.stream().map(JobStatus::dbValue).toList();
    }
    List<String> out =
        filter.statuses().stream().filter(RETRYABLE::contains).map(JobStatus::dbValue).toList();
    if (out.isEmpty()) {
      throw new IllegalArgumentException(
          "a retry acts on failed, crashed or cancelled jobs; the filter names only "
              + filter.statuses());
    }
    return out;
  }

  /** The labels as a JSON object, or null when the filter names none. */
  String labelsJson() {
    return filter.labels().isEmpty() ? "" : JsonWriter.object(filter.labels());
  }
}
