package io.taskq;

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
 *   raw   = exponential: base * 2^min(n-1, 62) | linear: base * n | constant: base
 *   delay = min(raw, cap, maxRetryBackoff) * (1 - jitter * u),  u uniform in [0, 1)
 * </pre>
 *
 * The SQL function {@code retry_delay} in the schema computes exactly the same value; a test pins
 * the two together.
 */
public final class RetryPolicy {
  /** The backoff curve. */
  public enum Backoff {
    /** Delays grow by doubling: {@code base * 2^(attempt - 1)}. */
    EXPONENTIAL,
    /** Delays grow by {@code base} per attempt: {@code base * attempt}. */
    LINEAR,
    /** Every delay is {@code base}. */
    CONSTANT;

    private final String dbValue = name().toLowerCase(java.util.Locale.ROOT);

    /** {@return the value stored in {@code jobs.retry_backoff}} */
    public String dbValue() {
      return dbValue;
    }
  }

  /** The largest base or cap: a year. Longer retry delays are configuration mistakes. */
  public static final Duration MAX_DELAY = Duration.ofDays(365);

  /** The largest {@code maxAttempts}. */
  public static final int MAX_ATTEMPTS_LIMIT = 1_000_000;

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

  /**
   * {@return the default policy: exponential from 1 s, capped at 10 min, 20 % jitter, 20 attempts}
   */
  public static RetryPolicy defaults() {
    return DEFAULT;
  }

  /**
   * {@return a policy; each argument is checked at once}
   *
   * @param backoff the backoff curve
   * @param base the first delay: whole milliseconds, 1 ms to 365 days
   * @param cap the largest delay: whole milliseconds, from {@code base} to 365 days
   * @param jitter the fraction of each delay that is random, in [0, 1]
   * @param maxAttempts attempts in all (the first run included), 1 to 1 000 000
   * @throws IllegalArgumentException naming the argument, its value and the allowed range
   */
  public static RetryPolicy of(
      Backoff backoff, Duration base, Duration cap, double jitter, int maxAttempts) {
    Objects.requireNonNull(backoff, "backoff");
    requireWholeMillis("base", base, Duration.ofMillis(1));
    requireWholeMillis("cap", cap, base);
    if (!(jitter >= 0.0 && jitter <= 1.0)) {
      throw new IllegalArgumentException("retry jitter must be in [0, 1], was " + jitter);
    }
    if (maxAttempts < 1 || maxAttempts > MAX_ATTEMPTS_LIMIT) {
      throw new IllegalArgumentException(
          "retry maxAttempts must be in [1, " + MAX_ATTEMPTS_LIMIT + "], was " + maxAttempts);
    }
    return new RetryPolicy(backoff, base, cap, jitter, maxAttempts);
  }

  /**
   * Base and cap are stamped into bigint millisecond columns, so a sub-millisecond part would be
   * lost silently between the Java and the SQL side of the policy: refuse it instead.
   */
  private static void requireWholeMillis(String name, Duration value, Duration min) {
    Objects.requireNonNull(value, name);
    if (value.compareTo(min) < 0
        || value.compareTo(MAX_DELAY) > 0
        || value.toNanosPart() % 1_000_000 != 0) {
      throw new IllegalArgumentException(
          "retry "
              + name
              + " must be a whole number of milliseconds in ["
              + min.toMillis()
              + "ms, "
              + MAX_DELAY.toDays()
              + "d], was "
              + value);
    }
  }

  /**
   * {@return a copy with another attempt bound}
   *
   * @param attempts the new bound on attempts
   */
  public RetryPolicy withMaxAttempts(int attempts) {
    return of(backoff, base, cap, jitter, attempts);
  }

  /**
   * {@return the delay after attempt {@code attempt} (1-based; below 1 counts as 1) failed}
   *
   * <p>The arithmetic mirrors the SQL function {@code retry_delay} operation for operation in IEEE
   * doubles (raw delay, the least of raw, cap and ceiling, the jitter factor, then {@code / 1000 *
   * 1 000 000} to microseconds rounded half-to-even, as PostgreSQL 15's {@code make_interval}
   * does), so both sides produce the same microsecond.
   *
   * @param attempt the attempt that failed
   * @param maxRetryBackoff the deployment-wide ceiling ({@code max_retry_backoff}), not negative;
   *     whole milliseconds count (a sub-millisecond part is dropped, as its bigint column drops it)
   * @param u a uniform random number in [0, 1]; 0 gives the undithered delay, values near 1 take
   *     off nearly {@code jitter} of it
   * @throws IllegalArgumentException naming the argument when {@code maxRetryBackoff} is negative
   *     or {@code u} is outside [0, 1]
   */
  public Duration delayAfter(int attempt, Duration maxRetryBackoff, double u) {
    if (maxRetryBackoff.isNegative()) {
      throw new IllegalArgumentException(
          "maxRetryBackoff must not be negative, was " + maxRetryBackoff);
    }
    if (!(u >= 0.0 && u <= 1.0)) {
      throw new IllegalArgumentException("u must be in [0, 1], was " + u);
    }
    long ceilingMs =
        maxRetryBackoff.compareTo(cap) >= 0 ? cap.toMillis() : maxRetryBackoff.toMillis();
    double capped = Math.min(rawDelayMillis(Math.max(attempt, 1)), (double) ceilingMs);
    double micros = Math.rint(capped * (1 - jitter * u) / 1000.0 * 1_000_000.0);
    return Duration.ofNanos(((long) micros) * 1000L);
  }

  private double rawDelayMillis(int attempt) {
    double baseMs = base.toMillis();
    return switch (backoff) {
      case EXPONENTIAL -> baseMs * Math.pow(2, Math.min(attempt - 1, 62));
      case LINEAR -> baseMs * attempt;
      case CONSTANT -> baseMs;
    };
  }

  /**
   * {@return true when a job that has started {@code attemptsSoFar} attempts may run again}
   *
   * @param attemptsSoFar the attempts started so far
   */
  public boolean allowsAnotherAttempt(int attemptsSoFar) {
    return attemptsSoFar < maxAttempts;
  }

  /**
   * The backoff curve.
   *
   * @return the backoff curve
   */
  public Backoff backoff() {
    return backoff;
  }

  /**
   * The delay after the first failed attempt, before jitter.
   *
   * @return the base delay
   */
  public Duration base() {
    return base;
  }

  /**
   * The largest delay, before jitter.
   *
   * @return the cap on the delay
   */
  public Duration cap() {
    return cap;
  }

  /**
   * The share of a delay jitter may take off, 0..1.
   *
   * @return the jitter share
   */
  public double jitter() {
    return jitter;
  }

  /**
   * The attempts in all, the first included.
   *
   * @return the bound on attempts
   */
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
