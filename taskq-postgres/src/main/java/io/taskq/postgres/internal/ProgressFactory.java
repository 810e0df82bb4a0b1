package io.taskq.postgres.internal;

import io.taskq.SchemaName;
import io.taskq.progress.PostgresProgressStore;
import java.time.Duration;
import javax.sql.DataSource;

/**
 * Makes the PostgreSQL progress store of a root; registered by {@code PostgresProgressStore} (see
 * {@link Handles}).
 */
@FunctionalInterface
public interface ProgressFactory {
  /** The store of {@code schema}, its subscriptions polling every {@code pollInterval}. */
  PostgresProgressStore create(DataSource dataSource, SchemaName schema, Duration pollInterval);
}
