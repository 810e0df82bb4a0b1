/**
 * The crash-reclaim event feed behind {@link io.taskq.feed.ReclaimEventFeed} (E1-E4, D12): the poll
 * statement, the lag read-out, the events-channel listener and the watch loop. Internal: not an
 * API; may change in any release.
 */
@NullMarked
package io.taskq.postgres.internal.feed;

import org.jspecify.annotations.NullMarked;
