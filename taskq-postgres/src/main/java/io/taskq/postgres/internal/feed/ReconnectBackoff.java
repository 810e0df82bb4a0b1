package io.taskq.postgres.internal.feed;

import java.time.Duration;
import java.util.function.DoubleSupplier;

/**
 * Exponential backoff with jitter between retries of the watch loop's failed steps: {@code
 * initial}, doubling on each consecutive failure, never above {@code max}; each wait is drawn from
 * the upper half of the step ({@code [step/2, step]}), so watchers that lost their connections
 * together do not reconnect in lock step. {@link #reset()} after a success. Not thread-safe: one
 * loop owns one.
 */
final class ReconnectBackoff {
  private final Duration initial;
  private final Duration max;
  private final DoubleSupplier random;
  private Duration step;
  private int failures;

  ReconnectBackoff(Duration initial, Duration max, DoubleSupplier random) {
    if (initial.isNegative() || initial.isZero() || max.compareTo(initial) < 0) {
      throw new IllegalArgumentException(
          "backoff needs 0 < initial <= max, was initial=" + initial + ", max=" + max);
    }
    this.initial = initial;
    this.max = max;
    this.random = random;
    this.step = initial;
  }

  /** The wait before the next retry; each call doubles the step after it, up to the maximum. */
  Duration next() {
    Duration current = step;
    failures++;
    Duration doubled = current.multipliedBy(2);
    step = doubled.compareTo(max) > 0 ? max : doubled;
    long half = current.toNanos() / 2;
    return Duration.ofNanos(half + (long) (random.getAsDouble() * (current.toNanos() - half)));
  }

  /** Consecutive failures since the last reset. */
  int failures() {
    return failures;
  }

  /** Back to the initial step after a success. */
  void reset() {
    step = initial;
    failures = 0;
  }
}
