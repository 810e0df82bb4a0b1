package io.taskq.operations;

import io.taskq.JobStatus;
import java.time.Duration;
import java.util.Map;

/**
 * One queue as an operator sees it (A4, A8): its jobs per status, the age of its oldest due job,
 * and whether it is paused (by name or by {@code *}).
 *
 * @param name the queue's name
 * @param paused true when the queue is paused, by name or by {@code *}
 * @param counts jobs per status in the hot table
 * @param oldestPendingAge how long its oldest due pending job has waited, zero when none
 */
public record QueueInfo(
    String name, Map<JobStatus, Long> counts, Duration oldestPendingAge, boolean paused) {

  /**
   * Copies the counts.
   *
   * @param name the queue's name
   * @param paused true when the queue is paused, by name or by {@code *}
   * @param counts jobs per status in the hot table
   * @param oldestPendingAge how long its oldest due pending job has waited, zero when none
   */
  public QueueInfo {
    counts = Map.copyOf(counts);
  }

  /**
   * {@return the number of jobs of {@code status}, 0 when none}
   *
   * @param status the status to count
   */
  public long count(JobStatus status) {
    return counts.getOrDefault(status, 0L);
  }
}
