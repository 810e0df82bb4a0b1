package io.taskq.feed;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * How far the crash-reclaim feed is held back (D12), from {@link ReclaimEventFeed#lag()}.
 *
 * <p>The feed only delivers events whose writing transaction is older than every transaction still
 * running in the database cluster. One long transaction anywhere (a report, a migration, a session
 * left idle in a transaction, a prepared transaction) therefore delays the feed; it never makes it
 * lose an event. These figures say whether that is happening and who does it.
 *
 * @param heldBackEvents committed crash-reclaim events not yet deliverable because an older
 *     transaction is still running
 * @param oldestHeldBackEventAge how long the oldest of them has waited since it was written; zero
 *     when none is held back
 * @param oldestTransactionPid the backend process id of the running transaction with the oldest
 *     transaction id (the one holding the feed back); null when no transaction is running or when
 *     it is a prepared transaction, which has no backend
 * @param oldestTransactionAge how long that transaction has been open; zero when none runs or when
 *     this database role may not see its start time ({@code pg_read_all_stats} may)
 */
public record ReclaimFeedLag(
    long heldBackEvents,
    Duration oldestHeldBackEventAge,
    @Nullable Integer oldestTransactionPid,
    Duration oldestTransactionAge) {}
