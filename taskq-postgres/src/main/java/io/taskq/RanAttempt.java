package io.taskq;

/**
 * One attempt that ran in the caller's thread, in inline mode or during {@link TaskQ#drain()}.
 *
 * @param jobId the job's id
 * @param actor the job's actor
 * @param queue the job's queue
 * @param attempt the attempt's number, starting at 1
 * @param status the job's status once the attempt was recorded: {@code SUCCEEDED}, {@code FAILED}
 *     (for good), {@code CANCELLED}, {@code PENDING} when it will be retried, or {@code RUNNING}
 *     when its outcome was not recorded because another worker had taken the job over (D9)
 */
public record RanAttempt(long jobId, String actor, String queue, int attempt, JobStatus status) {}
