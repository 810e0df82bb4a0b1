/**
 * Keyed rate limits (guide §4, M5, D13, D14): the {@link io.taskq.limits.RateLimiter} contract
 * every store implements, the three algorithms' limits, what a limiter does when its store is
 * unreachable, and the per-worker registry of keyed limits (S10).
 *
 * <p>The Redis limiters live in {@code taskq-redis}; a PostgreSQL sliding window can stand behind
 * the same interface as their fallback.
 */
@NullMarked
package io.taskq.limits;

import org.jspecify.annotations.NullMarked;
