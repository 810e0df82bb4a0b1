package io.taskq.operations;

import io.taskq.JobStatus;
import java.time.Instant;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One row of a job search (A1): what a list shows, without payload, result or stack trace ({@link
 * Operations#detail(long)} has those).
 *
 * @param id the job's id
 * @param actor the actor's name
 * @param queue the queue's name
 * @param status the job's status
 * @param priority the priority; lower runs first
 * @param runAt when the job is due
 * @param createdAt when it was enqueued
 * @param startedAt when its latest attempt started, else {@code null}
 * @param finishedAt when it ended, else {@code null}
 * @param attempt attempts started so far
 * @param maxAttempts attempts allowed in all
 * @param labels the job's labels, sorted by key
 * @param errorClass the last error's class, or {@code null}
 * @param errorMessage the last error's message, or {@code null}
 * @param archived whether the job was found in the archive (pruned, S11)
 */
public record JobSummary(
    long id,
    String actor,
    String queue,
    JobStatus status,
    int priority,
    int attempt,
    int maxAttempts,
    Instant runAt,
    Instant createdAt,
    @Nullable Instant startedAt,
    @Nullable Instant finishedAt,
    @Nullable String errorClass,
    @Nullable String errorMessage,
    Map<String, String> labels,
    boolean archived) {

  /**
   * Copies the labels.
   *
   * @param id the job's id
   * @param actor the actor's name
   * @param queue the queue's name
   * @param status the job's status
   * @param priority the priority; lower runs first
   * @param runAt when the job is due
   * @param createdAt when it was enqueued
   * @param startedAt when its latest attempt started, else {@code null}
   * @param finishedAt when it ended, else {@code null}
   * @param archived whether the job was found in the archive (pruned, S11)
   * @param attempt attempts started so far
   * @param errorClass the last error's class, or {@code null}
   * @param errorMessage the last error's message, or {@code null}
   * @param labels the job's labels, sorted by key
   * @param maxAttempts attempts allowed in all
   */
  public JobSummary {
    labels = Map.copyOf(labels);
  }
}
