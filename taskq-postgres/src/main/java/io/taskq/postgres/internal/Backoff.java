package io.taskq.postgres.internal;

import java.time.Duration;

/**
 * Exponential backoff between retries of a loop's failed step: {@code initial}, doubling on each
 * consecutive failure, never above {@code max}; {@link #reset()} after a success. Not thread-safe:
 * one loop owns one.
 */
public final class Backoff {
  private final Duration initial;
  private final Duration max;
  private Duration next;
  private int failures;

  public Backoff(Duration initial, Duration max) {
    if (initial.isNegative() || initial.isZero() || max.compareTo(initial) < 0) {
      throw new IllegalArgumentException(
          "backoff needs 0 < initial <= max, was initial=" + initial + ", max=" + max);
    }
    this.initial = initial;
    this.max = max;
    this.next = initial;
  }

  /** The delay before the next retry; each call doubles the one after, up to the maximum. */
  public Duration next() {
    Duration current = next;
    failures++;
    Duration doubled = current.multipliedBy(2);
    next = doubled.compareTo(max) > 0 ? max : doubled;
    return current;
  }

  /** Consecutive failures since the last reset. */
  public int failures() {
    return failures;
  }

  /** Back to the initial delay after a success. */
  public void reset() {
    next = initial;
    failures = 0;
  }
}
