package io.taskq.core;

import java.time.Duration;
import java.util.Objects;

/**
 * How a job is retried (L3): backoff kind, base, cap, jitter and a bound on attempts.
 *
 * <p>The policy is stamped into the job's columns at enqueue, so every later reschedule (a handler
 * failure, a lease reclaim by the leader) applies the policy the job was enqueued with, even after
 * the code's defaults change. The delay before attempt {@code n + 1} after attempt {@code n} failed
 * is:
 *
 * <pre>
 *   raw   = exponential: base * 2^(n-1) | linear: base * n | constant: base
 *   delay = min(raw, cap, maxRetryBackoff) * (1 - jitter * u),  u uniform in [0, 1)
 * </pre>
 *
 * The SQL function {@code retry_delay} in the schema computes exactly the same value; a test pins
 * the two together.
 */
public final class RetryPolicy {
  /** The backoff curve. */
  public enum Backoff {
    EXPONENTIAL,
    LINEAR,
    CONSTANT;

    /** The value stored in {@code jobs.retry_backoff}. */
    public String dbValue() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  private static final RetryPolicy DEFAULT =
      new RetryPolicy(Backoff.EXPONENTIAL, Duration.ofSeconds(1), Duration.ofMinutes(10), 0.2, 20);

  private final Backoff backoff;
  private final Duration base;
  private final Duration cap;
  private final double jitter;
  private final int maxAttempts;

  private RetryPolicy(
      Backoff backoff, Duration base, Duration cap, double jitter, int maxAttempts) {
    this.backoff = backoff;
    this.base = base;
    this.cap = cap;
    this.jitter = jitter;
    this.maxAttempts = maxAttempts;
  }

  /** Exponential from 1 s, capped at 10 min, 20 % jitter, 20 attempts. */
  public static RetryPolicy defaults() {
    return DEFAULT;
  }

  /**
   * A policy; each argument is checked at once.
   *
   * @param base the first delay, at least 1 ms
   * @param cap the largest delay, not below {@code base}
   * @param jitter the fraction of each delay that is random, in [0, 1]
   * @param maxAttempts attempts in all (the first run included), 1 to 1 000 000
   * @throws IllegalArgumentException naming the argument and its allowed range
   */
  public static RetryPolicy of(
      Backoff backoff, Duration base, Duration cap, double jitter, int maxAttempts) {
    Objects.requireNonNull(backoff, "backoff");
    if (base.toMillis() < 1) {
      throw new IllegalArgumentException("retry base must be at least 1ms, was " + base);
    }
    if (cap.compareTo(base) < 0) {
      throw new IllegalArgumentException(
          "retry cap must be at least the base (" + base + "), was " + cap);
    }
    if (!(jitter >= 0.0 && jitter <= 1.0)) {
      throw new IllegalArgumentException("retry jitter must be in [0, 1], was " + jitter);
    }
    if (maxAttempts < 1 || maxAttempts > 1_000_000) {
      throw new IllegalArgumentException(
          "max attempts must be in [1, 1000000], was " + maxAttempts);
    }
    return new RetryPolicy(backoff, base, cap, jitter, maxAttempts);
  }

  /** A copy with another attempt bound. */
  public RetryPolicy withMaxAttempts(int attempts) {
    return of(backoff, base, cap, jitter, attempts);
  }

  /**
   * The delay after attempt {@code attempt} (1-based) failed.
   *
   * @param maxRetryBackoff the deployment-wide ceiling ({@code TASKQ_MAX_RETRY_BACKOFF})
   * @param u a uniform random number in [0, 1); pass 0 for the undithered delay
   */
  public Duration delayAfter(int attempt, Duration maxRetryBackoff, double u) {
    double baseMs = base.toMillis();
    int n = Math.max(attempt, 1);
    double raw =
        switch (backoff) {
          case EXPONENTIAL -> baseMs * Math.pow(2, Math.min(n - 1, 62));
          case LINEAR -> baseMs * n;
          case CONSTANT -> baseMs;
        };
    double capped = Math.min(raw, (double) Math.min(cap.toMillis(), maxRetryBackoff.toMillis()));
    double micros = capped * (1 - jitter * u) * 1000.0;
    return Duration.ofNanos(Math.round(micros) * 1000L);
  }

  /** True when a job that has started {@code attemptsSoFar} attempts may run again. */
  public boolean allowsAnotherAttempt(int attemptsSoFar) {
    return attemptsSoFar < maxAttempts;
  }

  public Backoff backoff() {
    return backoff;
  }

  public Duration base() {
    return base;
  }

  public Duration cap() {
    return cap;
  }

  public double jitter() {
    return jitter;
  }

  public int maxAttempts() {
    return maxAttempts;
  }

  @Override
  public boolean equals(@org.jspecify.annotations.Nullable Object other) {
    return other instanceof RetryPolicy that
        && backoff == that.backoff
        && base.equals(that.base)
        && cap.equals(that.cap)
        && Double.compare(jitter, that.jitter) == 0
        && maxAttempts == that.maxAttempts;
  }

  @Override
  public int hashCode() {
    return Objects.hash(backoff, base, cap, jitter, maxAttempts);
  }

  @Override
  public String toString() {
    return "RetryPolicy{"
        + backoff.dbValue()
        + ", base="
        + base
        + ", cap="
        + cap
        + ", jitter="
        + jitter
        + ", maxAttempts="
        + maxAttempts
        + "}";
  }
}
