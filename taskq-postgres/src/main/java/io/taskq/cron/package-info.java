/**
 * Cron schedules (S12): {@link io.taskq.cron.Schedules}, a handle from the TaskQ root, creates,
 * changes and lists {@link io.taskq.cron.Schedule}s; {@link io.taskq.cron.MisfirePolicy} says what
 * a late fire does. {@code CronExpression} lives in the same package in {@code taskq-core}.
 */
@NullMarked
package io.taskq.cron;

import org.jspecify.annotations.NullMarked;
