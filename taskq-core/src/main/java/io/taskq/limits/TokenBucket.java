package io.taskq.limits;

import java.time.Duration;
import java.util.Objects;

/**
 * A token bucket: holds up to {@code capacity} tokens, starts full, and gains one token every
 * {@link #refillIntervalMicros()} (that is {@code refillTokens} per {@code refillPeriod}). A
 * request takes its permits if that many tokens are there.
 *
 * <p>Choose it for "N per period, with bursts up to the capacity after a quiet spell". Redis keeps
 * two numbers per name ({@code taskq:{schema}:rl:tb:{name}}).
 *
 * @param capacity the most tokens the bucket holds, and the largest burst; 1..1 000 000 000
 * @param refillTokens how many tokens arrive per {@code refillPeriod}; 1..1 000 000 000
 * @param refillPeriod the period over which {@code refillTokens} arrive; the interval between two
 *     tokens ({@code refillPeriod / refillTokens}, rounded down to whole microseconds) must be at
 *     least 1 µs, and an empty bucket must refill within 366 days
 */
public record TokenBucket(int capacity, int refillTokens, Duration refillPeriod)
    implements RateLimit {
  private static final int MAX_COUNT = 1_000_000_000;

  /**
   * Validates the parameters.
   *
   * @param capacity the most tokens the bucket holds, and the largest burst; 1..1 000 000 000
   * @param refillPeriod the period over which {@code refillTokens} arrive; the interval between two
   *     tokens ({@code refillPeriod / refillTokens}, rounded down to whole microseconds) must be at
   *     least 1 µs, and an empty bucket must refill within 366 days
   * @param refillTokens how many tokens arrive per {@code refillPeriod}; 1..1 000 000 000
   */
  public TokenBucket {
    RateLimit.positive(capacity, MAX_COUNT, "token bucket capacity");
    RateLimit.positive(refillTokens, MAX_COUNT, "token bucket refillTokens");
    long periodMicros = RateLimit.micros(Objects.requireNonNull(refillPeriod), "refillPeriod");
    if (periodMicros / refillTokens < 1) {
      throw new IllegalArgumentException(
          "token bucket refills "
              + refillTokens
              + " tokens per "
              + refillPeriod
              + ": more than one per microsecond; use fewer tokens or a longer period");
    }
    RateLimit.requireHorizon(capacity, periodMicros / refillTokens, "an empty token bucket");
  }

  /**
   * {@return a bucket of {@code capacity} tokens that gains {@code refillTokens} per {@code
   * period}}
   *
   * @param capacity the most tokens the bucket holds, positive
   * @param refillTokens the tokens gained per period, positive
   * @param period the refill period
   */
  public static TokenBucket of(int capacity, int refillTokens, Duration period) {
    return new TokenBucket(capacity, refillTokens, period);
  }

  /**
   * Microseconds between two tokens.
   *
   * @return the refill interval in microseconds
   */
  public long refillIntervalMicros() {
    return refillPeriod.toNanos() / 1000 / refillTokens;
  }

  @Override
  public Algorithm algorithm() {
    return Algorithm.TOKEN_BUCKET;
  }

  @Override
  public int maxPermits() {
    return capacity;
  }
}
