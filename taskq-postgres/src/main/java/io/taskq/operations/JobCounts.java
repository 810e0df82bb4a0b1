package io.taskq.operations;

import io.taskq.JobStatus;
import java.util.Map;

/**
 * Jobs per status, and per status within each queue and each actor (A1), counted at one instant.
 *
 * @param byStatus jobs per status; a status without jobs is absent
 * @param byQueue per queue, jobs per status
 * @param byActor per actor, jobs per status
 * @param includesArchive whether pruned (archived) jobs are counted too
 */
public record JobCounts(
    Map<JobStatus, Long> byStatus,
    Map<String, Map<JobStatus, Long>> byQueue,
    Map<String, Map<JobStatus, Long>> byActor,
    boolean includesArchive) {

  /**
   * Copies the maps.
   *
   * @param byActor per actor, jobs per status
   * @param byQueue per queue, jobs per status
   * @param byStatus jobs per status; a status without jobs is absent
   * @param includesArchive whether pruned (archived) jobs are counted too
   */
  public JobCounts {
    byStatus = Map.copyOf(byStatus);
    byQueue = Map.copyOf(byQueue);
    byActor = Map.copyOf(byActor);
  }

  /**
   * {@return the number of jobs of {@code status}, 0 when none}
   *
   * @param status the status to count
   */
  public long of(JobStatus status) {
    return byStatus.getOrDefault(status, 0L);
  }

  /** {@return the number of jobs in all} */
  public long total() {
    return byStatus.values().stream().mapToLong(Long::longValue).sum();
  }
}
