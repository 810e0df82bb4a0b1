package io.taskq.postgres.internal;

import io.taskq.SchemaName;
import io.taskq.limits.PostgresSlidingWindow;
import io.taskq.limits.SlidingWindowLog;
import javax.sql.DataSource;

/**
 * Makes a PostgreSQL sliding-window limiter of a root; registered by {@code PostgresSlidingWindow}
 * (see {@link Handles}).
 */
@FunctionalInterface
public interface SlidingWindowFactory {
  /** The limiter of {@code limit} in {@code schema}, its rows marked keyed when {@code keyed}. */
  PostgresSlidingWindow create(
      DataSource dataSource, SchemaName schema, SlidingWindowLog limit, boolean keyed);
}
