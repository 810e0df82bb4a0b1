package io.taskq.operations;

import io.taskq.JobStatus;
import java.util.Map;

/**
 * One actor as an operator sees it (A4, A8).
 *
 * @param name the actor's name
 * @param queue the queue it was registered on, or an empty string when only jobs name it
 * @param registered whether a worker registered it ({@code actor_config})
 * @param counts jobs per status in the hot table
 * @param paused whether the actor is paused
 */
public record ActorInfo(
    String name, String queue, boolean registered, Map<JobStatus, Long> counts, boolean paused) {

  /**
   * Copies the counts.
   *
   * @param name the actor's name
   * @param counts jobs per status in the hot table
   * @param paused whether the actor is paused
   * @param queue the queue it was registered on, or an empty string when only jobs name it
   * @param registered whether a worker registered it ({@code actor_config})
   */
  public ActorInfo {
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
