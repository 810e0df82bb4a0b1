package io.taskq.operations;

import io.taskq.TaskQ;
import java.time.Instant;
import java.util.Objects;

/**
 * The jobs that finished in one minute of the database clock, as {@link
 * TaskQ#finishedPerMinute(java.time.Duration)} read them (the dashboard's throughput chart).
 *
 * @param minute the start of the minute
 * @param succeeded jobs that succeeded in it
 * @param failed jobs that failed or crashed in it (final failures; a failed attempt that is retried
 *     is not counted)
 */
public record FinishedMinute(Instant minute, long succeeded, long failed) {
  /**
   * Validates the minute.
   *
   * @param failed jobs that failed or crashed in it (final failures; a failed attempt that is
   *     retried is not counted)
   * @param minute the start of the minute
   * @param succeeded jobs that succeeded in it
   */
  public FinishedMinute {
    Objects.requireNonNull(minute, "minute");
    if (succeeded < 0 || failed < 0) {
      throw new IllegalArgumentException("counts must be >= 0");
    }
  }
}
