package io.taskq.postgres.internal.bulk;

import io.taskq.JobStatus;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The bound values of one bulk cancel: what {@code cancel_where} matches.
 *
 * @param maxId the highest job id when the operation started
 * @param statuses database values of the statuses to act on
 * @param actors actors to match, or {@code null} for any
 * @param queues queues to match, or {@code null} for any
 * @param labelsJson a JSON object the job's labels must contain, or {@code null}
 * @param olderThanMicros the age a job must exceed, or {@code null}
 * @param askedBy who asked (stripped), or {@code null} when no one was named
 */
record CancelCriteria(
    long maxId,
    List<String> statuses,
    @Nullable List<String> actors,
    @Nullable List<String> queues,
    @Nullable String labelsJson,
    @Nullable Long olderThanMicros,
    @Nullable String askedBy) {

  static List<String> dbValues(Iterable<JobStatus> statuses) {
    ArrayList<String> out = new ArrayList<>();
    for (JobStatus s : statuses) {
      out.add(s.dbValue());
    }
    return List.copyOf(out);
  }

  static @Nullable List<String> orNull(List<String> values) {
    return values.isEmpty() ? null : values;
  }
}
