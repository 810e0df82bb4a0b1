/**
 * Cron schedules (S12): {@link io.taskq.cron.CronExpression}, the parsed five-field expression. The
 * schedules themselves ({@code Schedules}, {@code Schedule}) live in the same package in {@code
 * taskq-postgres}.
 */
@NullMarked
package io.taskq.cron;

import org.jspecify.annotations.NullMarked;
