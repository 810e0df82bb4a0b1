package io.taskq.operations;

import io.taskq.JobInfo;
import io.taskq.progress.Progress;
import java.util.List;
import java.util.Optional;

/**
 * One job's full story (A2): its row (hot table or archive), every attempt, its events and its
 * latest progress.
 *
 * @param job the job's row, payload and result included
 * @param attempts every finished attempt, in order
 * @param events its events still within the retention period, oldest first
 * @param progress its latest progress report, if one is kept
 */
public record JobDetail(
    JobInfo job,
    List<AttemptRecord> attempts,
    List<EventRecord> events,
    Optional<Progress> progress) {

  /**
   * Copies the lists.
   *
   * @param attempts every finished attempt, in order
   * @param events its events still within the retention period, oldest first
   * @param job the job's row, payload and result included
   * @param progress its latest progress report, if one is kept
   */
  public JobDetail {
    attempts = List.copyOf(attempts);
    events = List.copyOf(events);
  }
}
