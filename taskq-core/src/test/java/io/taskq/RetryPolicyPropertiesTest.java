package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.RetryPolicy.Backoff;
import java.math.BigInteger;
import java.time.Duration;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Tag;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

@Tag("L3")
class RetryPolicyPropertiesTest {
  private static final long YEAR_MS = RetryPolicy.MAX_DELAY.toMillis();

  /** min(raw, cap, ceiling) in exact integer arithmetic, independent of the implementation. */
  private static long expectedUndithered(
      Backoff backoff, long baseMs, long capMs, long ceilingMs, int attempt) {
    int n = Math.max(attempt, 1);
    BigInteger raw =
        switch (backoff) {
          case EXPONENTIAL -> BigInteger.valueOf(baseMs).shiftLeft(Math.min(n - 1, 62));
          case LINEAR -> BigInteger.valueOf(baseMs).multiply(BigInteger.valueOf(n));
          case CONSTANT -> BigInteger.valueOf(baseMs);
        };
    return raw.min(BigInteger.valueOf(Math.min(capMs, ceilingMs))).longValueExact();
  }

  @Property
  void delayAlwaysLiesInTheJitterBandBelowTheCappedDelay(
      @ForAll Backoff backoff,
      @ForAll @LongRange(min = 1, max = 3_600_000) long baseMs,
      @ForAll @LongRange(min = 0, max = 365L * 86_400_000) long capExtraMs,
      @ForAll @DoubleRange(min = 0, max = 1) double jitter,
      @ForAll @IntRange(min = -3, max = Integer.MAX_VALUE) int attempt,
      @ForAll @LongRange(min = 0, max = 400L * 86_400_000) long ceilingMs,
      @ForAll @DoubleRange(min = 0, max = 1, maxIncluded = false) double u) {
    long capMs = Math.min(baseMs + capExtraMs, YEAR_MS);
    RetryPolicy policy =
        RetryPolicy.of(backoff, Duration.ofMillis(baseMs), Duration.ofMillis(capMs), jitter, 3);

    long delayMicros = policy.delayAfter(attempt, Duration.ofMillis(ceilingMs), u).toNanos() / 1000;

    long upperMicros = expectedUndithered(backoff, baseMs, capMs, ceilingMs, attempt) * 1000;
    double lowerMicros = (1 - jitter) * upperMicros;
    assertThat(delayMicros).isLessThanOrEqualTo(upperMicros);
    assertThat((double) delayMicros).isGreaterThanOrEqualTo(Math.floor(lowerMicros) - 1);
  }

  @Property
  void undithered_isTheCappedDelayExactly(
      @ForAll Backoff backoff,
      @ForAll @LongRange(min = 1, max = 3_600_000) long baseMs,
      @ForAll @IntRange(min = 1, max = 200) int attempt,
      @ForAll @LongRange(min = 0, max = 400L * 86_400_000) long ceilingMs) {
    RetryPolicy policy =
        RetryPolicy.of(backoff, Duration.ofMillis(baseMs), RetryPolicy.MAX_DELAY, 0.3, 3);
    assertThat(policy.delayAfter(attempt, Duration.ofMillis(ceilingMs), 0))
        .isEqualTo(
            Duration.ofMillis(expectedUndithered(backoff, baseMs, YEAR_MS, ceilingMs, attempt)));
  }

  @Property
  void undithered_neverShrinksFromOneAttemptToTheNext(
      @ForAll Backoff backoff,
      @ForAll @LongRange(min = 1, max = 60_000) long baseMs,
      @ForAll @IntRange(min = 1, max = Integer.MAX_VALUE - 1) int attempt) {
    RetryPolicy policy =
        RetryPolicy.of(backoff, Duration.ofMillis(baseMs), Duration.ofDays(1), 0.5, 3);
    assertThat(policy.delayAfter(attempt + 1, RetryPolicy.MAX_DELAY, 0))
        .isGreaterThanOrEqualTo(policy.delayAfter(attempt, RetryPolicy.MAX_DELAY, 0));
  }
}
