package io.taskq.limits;

import java.time.Duration;
import java.util.Objects;

/**
 * The generic cell rate algorithm: a steady {@code rate} per {@code period} with room for a burst
 * of {@code burst} requests, kept as a single timestamp per name (the theoretical arrival time,
 * TAT).
 *
 * <p>Behaves like a token bucket of capacity {@code burst} refilled at {@code rate} per {@code
 * period}, but stores one number and needs no refill arithmetic. Choose it for high-cardinality
 * keys (per customer, per IP) and large limits: its memory is constant per name, unlike the log.
 * Redis keeps it at {@code taskq:{schema}:sw_gcra:{name}}.
 *
 * @param rate requests per {@code period} in the steady state; 1..1 000 000 000
 * @param period the period of {@code rate}; the emission interval {@code period / rate} (rounded
 *     down to whole microseconds) must be at least 1 µs
 * @param burst the most requests admitted at once after a quiet spell; 1..1 000 000 000, and {@code
 *     burst} emission intervals must fit in 366 days
 */
public record Gcra(int rate, Duration period, int burst) implements RateLimit {
  private static final int MAX_COUNT = 1_000_000_000;

  /**
   * Validates the parameters.
   *
   * @param burst the most requests admitted at once after a quiet spell; 1..1 000 000 000, and
   *     {@code burst} emission intervals must fit in 366 days
   * @param period the period of {@code rate}; the emission interval {@code period / rate} (rounded
   *     down to whole microseconds) must be at least 1 µs
   * @param rate requests per {@code period} in the steady state; 1..1 000 000 000
   */
  public Gcra {
    RateLimit.positive(rate, MAX_COUNT, "GCRA rate");
    RateLimit.positive(burst, MAX_COUNT, "GCRA burst");
    long periodMicros = RateLimit.micros(Objects.requireNonNull(period), "GCRA period");
    if (periodMicros / rate < 1) {
      throw new IllegalArgumentException(
          "GCRA rate "
              + rate
              + " per "
              + period
              + " is more than one per microsecond; use a lower rate or a longer period");
    }
    RateLimit.requireHorizon(burst, periodMicros / rate, "a GCRA burst");
  }

  /**
   * {@return {@code rate} requests per {@code period}, bursts of up to {@code burst}}
   *
   * @param rate the requests per period, positive
   * @param period the period
   * @param burst the most requests at once, positive
   */
  public static Gcra of(int rate, Duration period, int burst) {
    return new Gcra(rate, period, burst);
  }

  /**
   * Microseconds between two requests in the steady state (the emission interval T).
   *
   * @return the emission interval in microseconds
   */
  public long emissionIntervalMicros() {
    return period.toNanos() / 1000 / rate;
  }

  @Override
  public Algorithm algorithm() {
    return Algorithm.GCRA;
  }

  @Override
  public int maxPermits() {
    return burst;
  }
}
