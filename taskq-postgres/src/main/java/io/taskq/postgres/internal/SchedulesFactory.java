package io.taskq.postgres.internal;

import io.taskq.SchemaName;
import io.taskq.cron.Schedules;
import io.taskq.postgres.internal.cron.PayloadFactories;
import javax.sql.DataSource;

/** Makes the schedules client of a root; registered by {@code Schedules} (see {@link Handles}). */
@FunctionalInterface
public interface SchedulesFactory {
  /** The schedules of {@code schema}, payloads from {@code factories}. */
  Schedules create(DataSource dataSource, SchemaName schema, PayloadFactories factories);
}
