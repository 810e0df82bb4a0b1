/** The cron loop (S12, F5): ticks that fire due schedules under the {@code cron} lock (M1). */
@NullMarked
package io.taskq.postgres.internal.cron;

import org.jspecify.annotations.NullMarked;
