package io.taskq.feed;

import java.util.List;

/**
 * One answer of {@link ReclaimEventFeed#pollReclaimEvents(FeedCursor, int)}.
 *
 * @param events the events after the polled cursor, in feed order; possibly none
 * @param cursor where to poll next: after the last event here, or the polled cursor when there is
 *     none
 * @param more whether the page is full, so more events may be deliverable right now
 */
public record ReclaimEventPage(List<ReclaimEvent> events, FeedCursor cursor, boolean more) {
  /**
   * Copies the events.
   *
   * @param cursor where to poll next: after the last event here, or the polled cursor when there is
   *     none
   * @param events the events after the polled cursor, in feed order; possibly none
   * @param more whether the page is full, so more events may be deliverable right now
   */
  public ReclaimEventPage {
    events = List.copyOf(events);
  }
}
