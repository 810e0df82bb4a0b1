package io.taskq.postgres.internal;

import io.taskq.TaskQConfig;
import io.taskq.feed.ReclaimEventFeed;
import io.taskq.spi.JobListener;
import javax.sql.DataSource;

/**
 * Makes the reclaim event feed of a root; registered by {@code ReclaimEventFeed} (see {@link
 * Handles}).
 */
@FunctionalInterface
public interface FeedFactory {
  /**
   * The feed of {@code config}'s schema, its polls' lag told to {@code listener}, its watches'
   * fault seams on {@code hooks}.
   */
  ReclaimEventFeed create(
      DataSource dataSource, TaskQConfig config, JobListener listener, TestHooks hooks);
}
