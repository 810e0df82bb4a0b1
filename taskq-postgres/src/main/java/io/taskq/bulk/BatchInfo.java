package io.taskq.bulk;

import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;
import org.jspecify.annotations.Nullable;

/**
 * A batch as stored (L9). While it is active the counts are those of the members that reached a
 * terminal status so far; once completed they are final.
 *
 * @param id the batch's id
 * @param completed whether every member was terminal and the batch completed
 * @param total the number of members
 * @param succeeded members that succeeded
 * @param failed members that failed or crashed
 * @param cancelled members that were cancelled
 * @param hookActor the completion hook's actor, or {@code null} for a batch without a hook
 * @param hookJobId the hook job's id once enqueued, else {@code null}
 * @param createdAt when the batch was created (database clock)
 * @param completedAt when it completed, else {@code null}
 */
public record BatchInfo(
    long id,
    boolean completed,
    int total,
    int succeeded,
    int failed,
    int cancelled,
    @Nullable String hookActor,
    @Nullable Long hookJobId,
    Instant createdAt,
    @Nullable Instant completedAt) {

  /** {@return the number of members that reached a terminal status so far} */
  public int finished() {
    return succeeded + failed + cancelled;
  }

  /** {@return the hook's actor, when the batch has a hook} */
  public Optional<String> hook() {
    return Optional.ofNullable(hookActor);
  }

  /** {@return the hook job's id, once the batch completed and its hook was enqueued} */
  public OptionalLong hookJob() {
    return hookJobId == null ? OptionalLong.empty() : OptionalLong.of(hookJobId);
  }
}
