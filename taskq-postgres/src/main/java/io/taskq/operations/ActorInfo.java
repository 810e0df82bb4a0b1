package io.taskq.operations;

import io.taskq.JobStatus;
import java.util.Map;

/**
 * One actor as an operator sees it (A4, A8).
 *
 * @param queue the queue it was registered on, or an empty string when only jobs name it
 * @param registered whether a worker registered it ({@code actor_config})
 * @param counts jobs per status in the hot table
 * @param paused whether the actor is paused
 */
public record ActorInfo(
    String name, String queue, boolean registered, Map<JobStatus, Long> counts, boolean paused) {

  /** Copies the counts. */
  public ActorInfo {
    counts = Map.copyOf(counts);
  }

  /** Jobs of {@code status}, 0 when none. */
  public long count(JobStatus status) {
    return counts.getOrDefault(status, 0L);
  }
}
