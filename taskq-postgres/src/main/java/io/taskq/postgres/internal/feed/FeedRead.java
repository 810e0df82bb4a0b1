package io.taskq.postgres.internal.feed;

import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What one poll statement saw, from one snapshot.
 *
 * @param rows the deliverable rows in feed order: committed, below the snapshot's xmin, and older
 *     than the visibility delay; only a prefix of the rows after the cursor
 * @param full whether the statement returned its whole limit of rows and all were old enough, so
 *     more may be waiting: poll again at once
 * @param ripensIn when the first row held back by the visibility delay becomes deliverable; null
 *     when no row was held back by it
 * @param heldBack whether committed rows wait behind an older running transaction (D12): they
 *     become deliverable when it ends, which nobody notifies
 * @param watermark the retention watermark in the same snapshot ({@link FeedPosition#ZERO} when
 *     nothing was pruned)
 * @param lag the age of the newest deliverable row by the database clock, zero when there is none:
 *     the {@code taskq.events.feed_lag} signal
 */
public record FeedRead(
    List<FeedRow> rows,
    boolean full,
    @Nullable Duration ripensIn,
    boolean heldBack,
    FeedPosition watermark,
    Duration lag) {
  public FeedRead {
    rows = List.copyOf(rows);
  }

  /** Whether the retention cut passed {@code cursor}: a pruned row sorted after it (E2). */
  public boolean strands(FeedPosition cursor) {
    return watermark.isAfter(cursor);
  }
}
