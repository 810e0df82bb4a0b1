package io.taskq.operations;

import io.taskq.JobStatus;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * What {@link Operations#retry(long)} did (A3).
 *
 * @param outcome whether the job was retried, and if not, why
 * @param status the job's status after the call ({@code pending} or {@code scheduled} when
 *     retried), {@code null} for an unknown job
 * @param runAt when the retried job runs, {@code null} when not retried
 * @param maxAttempts the attempt bound after the call (one more than before when the job had no
 *     attempt left), 0 when not retried
 */
public record RetryResult(
    Outcome outcome, @Nullable JobStatus status, @Nullable Instant runAt, int maxAttempts) {

  /** Why a retry did or did not happen. */
  public enum Outcome {
    /** The job is pending (or scheduled) again. */
    RETRIED,
    /** No such job in this schema. */
    NOT_FOUND,
    /** The job is scheduled, pending, running or succeeded: only failed, crashed, cancelled. */
    NOT_RETRYABLE,
    /** The job is a batch member: its batch already counted its outcome. */
    BATCH_MEMBER,
    /** The job was pruned into the archive; enqueue it anew instead. */
    ARCHIVED
  }

  /** {@return whether the job was retried} */
  public boolean retried() {
    return outcome == Outcome.RETRIED;
  }
}
