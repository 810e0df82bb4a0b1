/**
 * Redis rate limits and progress streams for TaskQ (M5, D13, D14), on Lettuce.
 *
 * <p>Start from a {@link io.taskq.redis.RedisConnector} built from the {@code TaskQConfig}; on it,
 * {@link io.taskq.redis.RedisRateLimiter} serves token-bucket, sliding-window-log and GCRA limits,
 * and {@link io.taskq.redis.RedisProgressStore} stores and fans out job progress. Every key carries
 * the schema, so two schemas share one Redis safely (M6).
 */
@NullMarked
package io.taskq.redis;

import org.jspecify.annotations.NullMarked;
