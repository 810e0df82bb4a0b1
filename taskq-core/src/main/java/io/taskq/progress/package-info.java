/**
 * Job progress (M5): handlers report a fraction and a short message (with optional JSON detail);
 * clients read a job's latest report and subscribe to one job or to the whole schema.
 *
 * <p>The Redis store lives in {@code taskq-redis}; without Redis, progress degrades to the latest
 * value kept in PostgreSQL, behind the same {@link io.taskq.progress.ProgressStore} contract.
 */
@NullMarked
package io.taskq.progress;

import org.jspecify.annotations.NullMarked;
