package io.taskq.progress;

import org.jspecify.annotations.Nullable;

/**
 * What a handler uses to report its job's progress.
 *
 * <p>Progress is advisory: a report never fails the job. When the store is unreachable the report
 * goes to the implementation's fallback, or is dropped (and logged); only invalid input throws.
 * Reports of one job replace each other: readers see the latest.
 */
@FunctionalInterface
public interface ProgressReporter {
  /**
   * Stores {@code fraction}, {@code message} and {@code detailJson} as the latest progress of job
   * {@code jobId} and notifies subscribers.
   *
   * @param jobId the job's id
   * @param fraction the share done, 0..1
   * @param message what is being done, at most {@link io.taskq.progress.Progress#MAX_MESSAGE_CHARS}
   *     characters
   * @param detailJson a JSON object with details, or {@code null}
   * @throws IllegalArgumentException when the report is invalid (see {@link
   *     Progress#validate(double, String, String)})
   */
  void report(long jobId, double fraction, String message, @Nullable String detailJson);

  /**
   * {@link #report(long, double, String, String)} without detail.
   *
   * @param jobId the job's id
   * @param fraction the share done, 0..1
   * @param message what is being done, at most {@link io.taskq.progress.Progress#MAX_MESSAGE_CHARS}
   *     characters
   */
  default void report(long jobId, double fraction, String message) {
    report(jobId, fraction, message, null);
  }
}
