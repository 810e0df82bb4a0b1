package io.taskq;

import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * A snapshot of one job's row, as {@link JobsClient#find(long)} read it.
 *
 * @param id the job's id
 * @param actor the actor's name
 * @param queue the queue's name
 * @param status the status when it was read
 * @param priority the priority; lower runs first
 * @param runAt when the job is due
 * @param deadlineAt the {@code schedule_to_close} deadline, else {@code null}
 * @param lockedBy the worker holding the lease, else {@code null}
 * @param lockExpiresAt when that lease expires, else {@code null}
 * @param uniqueKey the single-flight identity key (L6), else {@code null}
 * @param uniqueUntil until when it holds, else {@code null}
 * @param resultExpiresAt when the result expires, else {@code null}
 * @param errorClass the last failed attempt's error class, else {@code null}
 * @param errorMessage the last failed attempt's message, else {@code null}
 * @param errorStack the last failed attempt's stack trace, else {@code null}
 * @param createdAt when the job was enqueued
 * @param startedAt when its latest attempt started, else {@code null}
 * @param finishedAt when it ended, else {@code null}
 * @param payloadJson the payload in PostgreSQL's {@code jsonb} normal form (keys sorted, one space
 *     after ':' and ','), equal as JSON to what was enqueued
 * @param labels the labels, sorted by key
 * @param attempt attempts started so far
 * @param retryPolicy the policy stamped at enqueue (L3), with {@code maxAttempts}
 * @param snoozes how many times its handlers snoozed it (A5): free snoozes and those past the
 *     actor's {@code maxSnoozes} that counted as attempts alike
 * @param resultJson the handler's result until it expires (L5), else {@code null}
 * @param cancelRequestedAt when a cancel was requested while the job ran (L8)
 * @param concurrencyKey the key its concurrency cap counts it under (L7), else {@code null}
 * @param archived true when the job was found in {@code jobs_archive} (pruned, S11)
 */
public record JobInfo(
    long id,
    String actor,
    String queue,
    JobStatus status,
    short priority,
    String payloadJson,
    Map<String, String> labels,
    Instant runAt,
    int attempt,
    RetryPolicy retryPolicy,
    int snoozes,
    @Nullable Instant deadlineAt,
    @Nullable String lockedBy,
    @Nullable Instant lockExpiresAt,
    @Nullable Instant cancelRequestedAt,
    @Nullable String uniqueKey,
    @Nullable Instant uniqueUntil,
    @Nullable String concurrencyKey,
    @Nullable String resultJson,
    @Nullable Instant resultExpiresAt,
    @Nullable String errorClass,
    @Nullable String errorMessage,
    @Nullable String errorStack,
    Instant createdAt,
    @Nullable Instant startedAt,
    @Nullable Instant finishedAt,
    boolean archived) {

  /**
   * Copies the labels, sorted by key.
   *
   * @param id the job's id
   * @param actor the actor's name
   * @param queue the queue's name
   * @param status the status when it was read
   * @param priority the priority; lower runs first
   * @param runAt when the job is due
   * @param deadlineAt the {@code schedule_to_close} deadline, else {@code null}
   * @param lockedBy the worker holding the lease, else {@code null}
   * @param lockExpiresAt when that lease expires, else {@code null}
   * @param uniqueKey the single-flight identity key (L6), else {@code null}
   * @param uniqueUntil until when it holds, else {@code null}
   * @param resultExpiresAt when the result expires, else {@code null}
   * @param errorClass the last failed attempt's error class, else {@code null}
   * @param errorMessage the last failed attempt's message, else {@code null}
   * @param errorStack the last failed attempt's stack trace, else {@code null}
   * @param createdAt when the job was enqueued
   * @param startedAt when its latest attempt started, else {@code null}
   * @param finishedAt when it ended, else {@code null}
   * @param archived true when the job was found in {@code jobs_archive} (pruned, S11)
   * @param attempt attempts started so far
   * @param cancelRequestedAt when a cancel was requested while the job ran (L8)
   * @param concurrencyKey the key its concurrency cap counts it under (L7), else {@code null}
   * @param labels the labels, sorted by key
   * @param payloadJson the payload in PostgreSQL's {@code jsonb} normal form (keys sorted, one
   *     space after ':' and ','), equal as JSON to what was enqueued
   * @param resultJson the handler's result until it expires (L5), else {@code null}
   * @param retryPolicy the policy stamped at enqueue (L3), with {@code maxAttempts}
   * @param snoozes how many times its handlers snoozed it (A5): free snoozes and those past the
   *     actor's {@code maxSnoozes} that counted as attempts alike
   */
  public JobInfo {
    labels = Collections.unmodifiableMap(new TreeMap<>(labels));
  }

  /** {@return the attempts allowed in all, the first included: the stamped policy's bound} */
  public int maxAttempts() {
    return retryPolicy.maxAttempts();
  }

  /** Says which job and where it stands, never the payload or the result. */
  @Override
  public String toString() {
    return "JobInfo{id=" + id + ", actor=" + actor + ", status=" + status.dbValue() + "}";
  }
}
