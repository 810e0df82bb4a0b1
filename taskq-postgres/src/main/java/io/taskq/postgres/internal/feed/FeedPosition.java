package io.taskq.postgres.internal.feed;

/**
 * A place in the feed's order (D12): the writer's transaction id, then the event id.
 *
 * <p>Both parts are compared as unsigned 64-bit numbers, as PostgreSQL compares {@code xid8} and as
 * identity values never go negative. {@link #ZERO} sorts before every row: no transaction id is 0.
 *
 * @param writerXid the {@code job_events.writer_xid} of the row (a full 64-bit {@code xid8})
 * @param eventId the row's {@code job_events.event_id}
 */
public record FeedPosition(long writerXid, long eventId) implements Comparable<FeedPosition> {
  /** Before the first event. */
  public static final FeedPosition ZERO = new FeedPosition(0, 0);

  @Override
  public int compareTo(FeedPosition other) {
    int byXid = Long.compareUnsigned(writerXid, other.writerXid);
    return byXid != 0 ? byXid : Long.compareUnsigned(eventId, other.eventId);
  }

  /** Whether this position sorts after {@code other}. */
  public boolean isAfter(FeedPosition other) {
    return compareTo(other) > 0;
  }

  /** The transaction id as PostgreSQL prints an {@code xid8}. */
  public String writerXidText() {
    return Long.toUnsignedString(writerXid);
  }

  @Override
  public String toString() {
    return "(xid " + writerXidText() + ", event " + Long.toUnsignedString(eventId) + ")";
  }
}
