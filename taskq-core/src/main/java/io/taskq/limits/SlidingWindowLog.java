package io.taskq.limits;

import java.time.Duration;
import java.util.Objects;

/**
 * A sliding-window log: admits a request when fewer than {@code limit} permits were taken in the
 * last {@code window}, counting each taken permit at the instant it was taken.
 *
 * <p>Choose it when the limit is a hard contract ("never more than 100 calls in any 60 s", as a
 * third-party API counts them): it is exact, but it keeps one entry per permit taken in the window,
 * so its memory grows with {@code limit}. Redis keeps a sorted set per name ({@code
 * taskq:{schema}:sw:{name}}); the PostgreSQL fallback keeps the same log in {@code
 * rate_limit_buckets}.
 *
 * @param limit the most permits taken in any window; 1..1 000 000
 * @param window the window's length; 1 µs..366 days
 */
public record SlidingWindowLog(int limit, Duration window) implements RateLimit {
  private static final int MAX_LIMIT = 1_000_000;

  /**
   * Validates the parameters.
   *
   * @param limit the most permits taken in any window; 1..1 000 000
   * @param window the window's length; 1 µs..366 days
   */
  public SlidingWindowLog {
    RateLimit.positive(limit, MAX_LIMIT, "sliding window limit");
    RateLimit.micros(Objects.requireNonNull(window), "sliding window");
  }

  /**
   * {@return a limit of at most {@code limit} permits in any {@code window}}
   *
   * @param limit the most permits in any window, positive
   * @param window the window's length
   */
  public static SlidingWindowLog of(int limit, Duration window) {
    return new SlidingWindowLog(limit, window);
  }

  /** {@return the window in microseconds} */
  public long windowMicros() {
    return window.toNanos() / 1000;
  }

  @Override
  public Algorithm algorithm() {
    return Algorithm.SLIDING_WINDOW_LOG;
  }

  @Override
  public int maxPermits() {
    return limit;
  }
}
