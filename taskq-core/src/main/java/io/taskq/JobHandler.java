package io.taskq;

import org.jspecify.annotations.Nullable;

/**
 * The code an {@link Actor} runs for each of its jobs.
 *
 * <p>A handler receives the decoded payload and a {@link JobContext}. What it returns is the job's
 * result: the actor's {@link PayloadCodec} encodes it to JSON and the worker stores it with the
 * result TTL (L5); {@code null} stores no result. What it throws fails the attempt: the exception's
 * class name, message and stack trace are recorded (text sanitised, F6), and the job is retried
 * through the retry policy stamped on it at enqueue, or fails for good when no attempt is left
 * (L3).
 *
 * <p>Delivery is at least once: a worker that dies mid-job, or loses its lease, lets another worker
 * run the job again. Handlers should therefore be idempotent, and long ones should look at {@link
 * JobContext#isCancelRequested()} now and then and stop early when it turns true.
 *
 * @param <T> the decoded payload type
 */
@FunctionalInterface
public interface JobHandler<T> {
  /**
   * Runs one attempt of a job.
   *
   * @param payload the job's payload, decoded by the actor's codec
   * @param context the job's identity, attempt number, deadline and cancel flag
   * @return the result to store (encoded by the actor's codec), or {@code null} for none
   * @throws Exception to fail this attempt; the job retries or fails terminally
   */
  @Nullable Object handle(T payload, JobContext context) throws Exception;
}
