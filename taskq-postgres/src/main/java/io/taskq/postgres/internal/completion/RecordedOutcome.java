package io.taskq.postgres.internal.completion;

/**
 * One transition the completion statement made.
 *
 * @param status the job's new status: succeeded, pending (a retry), failed or cancelled
 * @param retryInMillis for a retry, how long until it falls due (database clock); else unused
 */
public record RecordedOutcome(long jobId, String status, long retryInMillis) {
  public boolean isRetry() {
    return "pending".equals(status);
  }

  /** The attempt failed and the job has none left (P4 logs it at WARN). */
  public boolean isFailedForGood() {
    return "failed".equals(status);
  }
}
