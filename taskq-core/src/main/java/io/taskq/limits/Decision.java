package io.taskq.limits;

import java.time.Duration;
import java.util.Objects;

/**
 * What a {@link RateLimiter} answered.
 *
 * @param allowed whether the permits were taken
 * @param retryAfter when refused, how long until the same request could succeed (never negative;
 *     {@link Duration#ZERO} when allowed). A dispatcher reschedules a limited job by this much
 *     without burning an attempt.
 * @param remaining how many more single permits the limit would admit right now, or {@link
 *     #UNKNOWN_REMAINING} when the decision did not come from the store (fail-open / fail-closed)
 * @param degraded true when the store was unreachable and the decision came from the {@link
 *     UnavailablePolicy} (fail open, fail closed, or the fallback limiter) instead of the store
 */
public record Decision(boolean allowed, Duration retryAfter, long remaining, boolean degraded) {
  /** {@link #remaining()} when nobody knows: the decision was made without the store. */
  public static final long UNKNOWN_REMAINING = -1;

  /**
   * Validates the components.
   *
   * @param allowed whether the permits were taken
   * @param degraded true when the store was unreachable and the decision came from the {@link
   *     UnavailablePolicy} (fail open, fail closed, or the fallback limiter) instead of the store
   * @param remaining how many more single permits the limit would admit right now, or {@link
   *     #UNKNOWN_REMAINING} when the decision did not come from the store (fail-open / fail-closed)
   * @param retryAfter when refused, how long until the same request could succeed (never negative;
   *     {@link Duration#ZERO} when allowed). A dispatcher reschedules a limited job by this much
   *     without burning an attempt.
   */
  public Decision {
    Objects.requireNonNull(retryAfter, "retryAfter");
    if (retryAfter.isNegative()) {
      throw new IllegalArgumentException("retryAfter must not be negative, was " + retryAfter);
    }
    if (allowed && !retryAfter.isZero()) {
      throw new IllegalArgumentException(
          "an allowed decision has retryAfter zero, was " + retryAfter);
    }
    if (remaining < UNKNOWN_REMAINING) {
      throw new IllegalArgumentException(
          "remaining must be -1 (unknown) or at least 0, was " + remaining);
    }
  }

  /**
   * {@return the store admitted the permits; {@code remaining} more would be admitted now}
   *
   * @param remaining the permits still available now
   */
  public static Decision allowed(long remaining) {
    return new Decision(true, Duration.ZERO, remaining, false);
  }

  /**
   * {@return the store refused; the same request could succeed after {@code retryAfter}}
   *
   * @param retryAfter how long to wait before asking again
   * @param remaining the permits still available now
   */
  public static Decision denied(Duration retryAfter, long remaining) {
    return new Decision(false, retryAfter, remaining, false);
  }

  /** {@return this decision, marked as made without the primary store} */
  public Decision asDegraded() {
    return degraded ? this : new Decision(allowed, retryAfter, remaining, true);
  }
}
