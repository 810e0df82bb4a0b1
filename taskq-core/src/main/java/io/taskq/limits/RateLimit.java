package io.taskq.limits;

import java.time.Duration;

/**
 * The shape of a keyed limit: one of the three algorithms and its parameters. A limit applies to
 * every name a limiter is asked about; each name gets its own independent state in the store.
 *
 * <p>All parameters are validated on construction, and all of them become whole microseconds, so
 * every store computes exactly the same decisions (the Redis scripts and their reference model use
 * integer arithmetic only). Choosing between them is explained in {@code docs/rate-limits.md}.
 */
public sealed interface RateLimit permits TokenBucket, SlidingWindowLog, Gcra {
  /** The longest time any limit may take to forget a request: 366 days. */
  Duration MAX_HORIZON = Duration.ofDays(366);

  /** The algorithms, named as in the guide and in the Redis keys (M5). */
  enum Algorithm {
    /** {@code taskq:{schema}:rl:tb:{name}}: bursts up to a capacity, refilled at a steady rate. */
    TOKEN_BUCKET,
    /** {@code taskq:{schema}:sw:{name}}: at most N requests in any window, exactly. */
    SLIDING_WINDOW_LOG,
    /** {@code taskq:{schema}:sw_gcra:{name}}: a steady rate with a burst, one number per key. */
    GCRA
  }

  /** {@return which algorithm this limit uses} */
  Algorithm algorithm();

  /**
   * {@return the most permits one call can ever be granted (capacity, limit or burst); asking for
   * more is a programming error, refused with {@link IllegalArgumentException}}
   */
  int maxPermits();

  /**
   * Refuses {@code permits} outside {@code 1..maxPermits()}, naming the limit.
   *
   * @param permits the permits asked for
   * @return {@code permits}, when in range
   * @throws IllegalArgumentException naming the argument, its value and the allowed range
   */
  default int requirePermits(int permits) {
    if (permits < 1 || permits > maxPermits()) {
      throw new IllegalArgumentException(
          "permits must be in 1.."
              + maxPermits()
              + " for "
              + this
              + " (more could never be granted at once), was "
              + permits);
    }
    return permits;
  }

  /**
   * {@return {@code value} in whole microseconds, refusing anything outside {@code 1 µs..366 days}}
   *
   * @param value the duration
   * @param what its name, for the message
   */
  static long micros(Duration value, String what) {
    if (value.isNegative()
        || value.isZero()
        || value.compareTo(MAX_HORIZON) > 0
        || value.toNanos() < 1000) {
      throw new IllegalArgumentException(
          what + " must be in 1µs.." + MAX_HORIZON.toDays() + " days, was " + value);
    }
    return value.toNanos() / 1000;
  }

  /**
   * Refuses a count outside {@code 1..max}, naming it.
   *
   * @param value the count
   * @param max the largest allowed value
   * @param what its name, for the message
   * @return {@code value}, when in range
   */
  static int positive(int value, int max, String what) {
    if (value < 1 || value > max) {
      throw new IllegalArgumentException(what + " must be in 1.." + max + ", was " + value);
    }
    return value;
  }

  /**
   * Refuses a limit whose state takes longer than {@link #MAX_HORIZON} to drain.
   *
   * @param count the permits of the limit
   * @param intervalMicros the microseconds each permit takes to drain
   * @param what the limit, for the message
   */
  static void requireHorizon(long count, long intervalMicros, String what) {
    long horizon = MAX_HORIZON.toNanos() / 1000;
    if (intervalMicros > horizon / count) {
      throw new IllegalArgumentException(
          what + " would take longer than " + MAX_HORIZON.toDays() + " days to drain");
    }
  }
}
