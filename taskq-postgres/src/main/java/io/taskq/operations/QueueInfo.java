package io.taskq.operations;

import io.taskq.JobStatus;
import java.time.Duration;
import java.util.Map;

/**
 * One queue as an operator sees it (A4, A8): its jobs per status, the age of its oldest due job,
 * and whether it is paused (by name or by {@code *}).
 *
 * @param counts jobs per status in the hot table
 * @param oldestPendingAge how long its oldest due pending job has waited, zero when none
 */
public record QueueInfo(
    String name, Map<JobStatus, Long> counts, Duration oldestPendingAge, boolean paused) {

  /** Copies the counts. */
  public QueueInfo {
    counts = Map.copyOf(counts);
  }

  /** Jobs of {@code status}, 0 when none. */
  public long count(JobStatus status) {
    return counts.getOrDefault(status, 0L);
  }
}
