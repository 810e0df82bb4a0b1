/**
 * The reclaim event feed: {@link io.taskq.feed.ReclaimEventFeed}, a handle from the TaskQ root,
 * pages through {@link io.taskq.feed.ReclaimEvent}s from a {@link io.taskq.feed.FeedCursor},
 * watches them ({@link io.taskq.feed.ReclaimWatch}) and reports its lag ({@link
 * io.taskq.feed.ReclaimFeedLag}).
 */
@NullMarked
package io.taskq.feed;

import org.jspecify.annotations.NullMarked;
