package io.taskq.postgres.internal.dispatch;

import java.time.Instant;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One job as the claim statement handed it to this worker.
 *
 * @param attempt the attempt this claim started (1 for the first run)
 * @param leaseToken the fencing token (D9) every later write of this attempt must match
 * @param deadline the {@code schedule_to_close} deadline, from the database clock
 * @param cancelRequested whether a cancel was already requested when the job was claimed
 * @param startedAt when the claim took the job, from the database clock (with {@code runAt}, the
 *     pickup latency)
 * @param labels the job's labels (empty for most jobs: the claim reads them only when there are
 *     some)
 * @param attemptTimeoutMillis the job's own per-attempt timeout (A6, {@code attempt_timeout_ms}), 0
 *     when it has none (the actor's applies)
 * @param holdsSlots whether this attempt may hold reservation slots (L7): true unless the claim
 *     knows it handed the attempt none (the plain claim never does; the capped claim says per job),
 *     so only then does recording its outcome look for slots to free
 */
public record ClaimedJob(
    long id,
    String actor,
    String queue,
    int priority,
    Instant runAt,
    String payload,
    int attempt,
    int maxAttempts,
    long leaseToken,
    @Nullable Instant deadline,
    boolean cancelRequested,
    Instant startedAt,
    Map<String, String> labels,
    long attemptTimeoutMillis,
    boolean holdsSlots) {

  /** A claimed job that may hold reservation slots. */
  public ClaimedJob(
      long id,
      String actor,
      String queue,
      int priority,
      Instant runAt,
      String payload,
      int attempt,
      int maxAttempts,
      long leaseToken,
      @Nullable Instant deadline,
      boolean cancelRequested,
      Instant startedAt,
      Map<String, String> labels,
      long attemptTimeoutMillis) {
    this(
        id,
        actor,
        queue,
        priority,
        runAt,
        payload,
        attempt,
        maxAttempts,
        leaseToken,
        deadline,
        cancelRequested,
        startedAt,
        labels,
        attemptTimeoutMillis,
        true);
  }

  /** A claimed job without its own attempt timeout. */
  public ClaimedJob(
      long id,
      String actor,
      String queue,
      int priority,
      Instant runAt,
      String payload,
      int attempt,
      int maxAttempts,
      long leaseToken,
      @Nullable Instant deadline,
      boolean cancelRequested,
      Instant startedAt,
      Map<String, String> labels) {
    this(
        id,
        actor,
        queue,
        priority,
        runAt,
        payload,
        attempt,
        maxAttempts,
        leaseToken,
        deadline,
        cancelRequested,
        startedAt,
        labels,
        0L);
  }

  /** A claimed job without labels. */
  public ClaimedJob(
      long id,
      String actor,
      String queue,
      int priority,
      Instant runAt,
      String payload,
      int attempt,
      int maxAttempts,
      long leaseToken,
      @Nullable Instant deadline,
      boolean cancelRequested,
      Instant startedAt) {
    this(
        id,
        actor,
        queue,
        priority,
        runAt,
        payload,
        attempt,
        maxAttempts,
        leaseToken,
        deadline,
        cancelRequested,
        startedAt,
        Map.of());
  }
}
