package io.taskq.feed;

/**
 * The event retention sweep (S8) deleted crash-reclaim events this consumer had not read yet (E2):
 * the guide's {@code EventRetentionGapError}.
 *
 * <p>The feed stops here rather than skip what was lost or start over silently. What to do: find
 * out what the lost events would have said from the jobs themselves (for example jobs in status
 * {@code crashed}, and {@code job_attempts} rows whose outcome is a reclaim disposition, since the
 * cursor's time), then resume deliberately from {@link #resumeCursor()}, which delivers every event
 * still retained. To keep it from happening again, read the feed more often than {@code
 * TASKQ_EVENT_RETENTION_PERIOD} (the reclaim slice is kept 100 times that long) or raise it. The
 * contract is in {@code docs/upgrading.md}.
 */
public final class EventRetentionGapException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  // Kept as tokens, so the exception stays serializable.
  /** The cursor that could not be continued, as a token. */
  private final String cursor;

  /** The position the retention sweep deleted events up to, as a token. */
  private final String watermark;

  EventRetentionGapException(FeedCursor cursor, FeedCursor watermark) {
    super(
        "the crash-reclaim feed was pruned past this consumer's cursor "
            + cursor.toToken()
            + ": the event retention sweep deleted events up to "
            + watermark.toToken()
            + " before they were read, so they cannot be delivered. Reconcile from the jobs"
            + " (status crashed, job_attempts) since the cursor, then resume explicitly from "
            + watermark.toToken()
            + " (resumeCursor()), or keep consumers within TASKQ_EVENT_RETENTION_PERIOD;"
            + " see \"The crash-reclaim feed contract\" in docs/upgrading.md");
    this.cursor = cursor.toToken();
    this.watermark = watermark.toToken();
  }

  /** {@return the consumer's cursor that was stranded} */
  public FeedCursor cursor() {
    return FeedCursor.parse(cursor);
  }

  /** {@return the prune watermark: the feed position of the last event the sweep deleted} */
  public FeedCursor watermark() {
    return FeedCursor.parse(watermark);
  }

  /**
   * {@return where to resume after reconciling: just after the last deleted event, so every event
   * still retained is delivered} Resuming here acknowledges the gap; the feed never does it by
   * itself.
   */
  public FeedCursor resumeCursor() {
    return watermark();
  }
}
