package io.taskq.operations;

import io.taskq.JobStatus;
import java.time.Instant;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One row of a job search (A1): what a list shows, without payload, result or stack trace ({@link
 * Operations#detail(long)} has those).
 *
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

  /** Copies the labels. */
  public JobSummary {
    labels = Map.copyOf(labels);
  }
}
