package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskq.RetryPolicy.Backoff;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Tag("L3")
class RetryPolicyTest {
  private static final Duration NO_CEILING = Duration.ofDays(365);

  private static List<Duration> undithered(RetryPolicy policy, int attempts, Duration ceiling) {
    List<Duration> delays = new ArrayList<>();
    for (int attempt = 1; attempt <= attempts; attempt++) {
      delays.add(policy.delayAfter(attempt, ceiling, 0.0));
    }
    return delays;
  }

  private static List<Duration> seconds(long... values) {
    List<Duration> out = new ArrayList<>();
    for (long value : values) {
      out.add(Duration.ofSeconds(value));
    }
    return out;
  }

  @Test
  void exponential_doublesFromTheBase() {
    RetryPolicy policy =
        RetryPolicy.of(Backoff.EXPONENTIAL, Duration.ofSeconds(1), Duration.ofHours(1), 0, 10);
    assertThat(undithered(policy, 7, NO_CEILING)).isEqualTo(seconds(1, 2, 4, 8, 16, 32, 64));
  }

  @Test
  void linear_growsByTheBaseEachAttempt() {
    RetryPolicy policy =
        RetryPolicy.of(Backoff.LINEAR, Duration.ofSeconds(2), Duration.ofHours(1), 0, 10);
    assertThat(undithered(policy, 5, NO_CEILING)).isEqualTo(seconds(2, 4, 6, 8, 10));
  }

  @Test
  void constant_alwaysWaitsTheBase() {
    RetryPolicy policy =
        RetryPolicy.of(Backoff.CONSTANT, Duration.ofSeconds(5), Duration.ofHours(1), 0, 10);
    assertThat(undithered(policy, 4, NO_CEILING)).isEqualTo(seconds(5, 5, 5, 5));
  }

  @Test
  void cap_boundsTheGrowingDelay() {
    RetryPolicy policy =
        RetryPolicy.of(Backoff.EXPONENTIAL, Duration.ofSeconds(1), Duration.ofSeconds(10), 0, 10);
    assertThat(undithered(policy, 6, NO_CEILING)).isEqualTo(seconds(1, 2, 4, 8, 10, 10));
  }

  @Test
  void maxRetryBackoff_isACeilingBelowTheJobsOwnCap() {
    RetryPolicy policy =
        RetryPolicy.of(Backoff.LINEAR, Duration.ofSeconds(1), Duration.ofHours(1), 0, 10);
    assertThat(undithered(policy, 5, Duration.ofSeconds(3))).isEqualTo(seconds(1, 2, 3, 3, 3));
  }

  @Test
  void maxRetryBackoff_aboveTheCapLeavesTheCapInCharge() {
    RetryPolicy policy =
        RetryPolicy.of(Backoff.EXPONENTIAL, Duration.ofSeconds(1), Duration.ofSeconds(4), 0, 10);
    assertThat(policy.delayAfter(10, Duration.ofSeconds(Long.MAX_VALUE), 0))
        .isEqualTo(Duration.ofSeconds(4));
  }

  @Test
  void maxRetryBackoff_ofZeroRetriesAtOnce() {
    assertThat(RetryPolicy.defaults().delayAfter(3, Duration.ZERO, 0.5)).isZero();
  }

  @Test
  void maxRetryBackoff_countsWholeMillisecondsLikeItsBigintColumn() {
    RetryPolicy policy =
        RetryPolicy.of(Backoff.CONSTANT, Duration.ofSeconds(1), Duration.ofSeconds(1), 0, 10);
    assertThat(policy.delayAfter(1, Duration.ofNanos(2_999_999), 0))
        .isEqualTo(Duration.ofMillis(2));
  }

  @Test
  void jitter_takesOffUpToItsFractionOfTheDelay() {
    RetryPolicy policy =
        RetryPolicy.of(Backoff.CONSTANT, Duration.ofSeconds(10), Duration.ofSeconds(10), 0.2, 10);
    assertThat(policy.delayAfter(1, NO_CEILING, 0.0)).isEqualTo(Duration.ofSeconds(10));
    assertThat(policy.delayAfter(1, NO_CEILING, 0.5)).isEqualTo(Duration.ofSeconds(9));
    assertThat(policy.delayAfter(1, NO_CEILING, 1.0)).isEqualTo(Duration.ofSeconds(8));
    assertThat(policy.delayAfter(1, NO_CEILING, Math.nextDown(1.0)))
        .isBetween(Duration.ofSeconds(8), Duration.ofSeconds(8).plusNanos(1_000));
  }

  @Test
  void jitter_appliesAfterTheCapAndTheCeiling() {
    RetryPolicy policy =
        RetryPolicy.of(Backoff.EXPONENTIAL, Duration.ofSeconds(1), Duration.ofSeconds(10), 0.5, 10);
    assertThat(policy.delayAfter(20, NO_CEILING, 1.0)).isEqualTo(Duration.ofSeconds(5));
    assertThat(policy.delayAfter(20, Duration.ofSeconds(4), 1.0)).isEqualTo(Duration.ofSeconds(2));
  }

  @Test
  void fullJitterCanReachZero() {
    RetryPolicy policy =
        RetryPolicy.of(Backoff.CONSTANT, Duration.ofSeconds(1), Duration.ofSeconds(1), 1.0, 10);
    assertThat(policy.delayAfter(1, NO_CEILING, 1.0)).isZero();
  }

  @Test
  void delays_areWholeMicrosecondsLikeAPostgresInterval() {
    RetryPolicy policy =
        RetryPolicy.of(Backoff.CONSTANT, Duration.ofMillis(7), Duration.ofMillis(7), 0.9, 10);
    for (double u = 0; u < 1; u += 0.0137) {
      assertThat(policy.delayAfter(1, NO_CEILING, u).toNanos() % 1_000).isZero();
    }
  }

  @Test
  void attemptsBelowOneCountAsTheFirst() {
    RetryPolicy policy =
        RetryPolicy.of(Backoff.LINEAR, Duration.ofSeconds(3), Duration.ofHours(1), 0, 10);
    assertThat(policy.delayAfter(0, NO_CEILING, 0)).isEqualTo(Duration.ofSeconds(3));
    assertThat(policy.delayAfter(-7, NO_CEILING, 0)).isEqualTo(Duration.ofSeconds(3));
  }

  @ParameterizedTest
  @ValueSource(ints = {63, 64, 1_000, Integer.MAX_VALUE})
  void hugeAttemptNumbersNeverOverflow(int attempt) {
    Duration cap = RetryPolicy.MAX_DELAY;
    for (Backoff backoff : Backoff.values()) {
      RetryPolicy policy = RetryPolicy.of(backoff, Duration.ofMillis(1), cap, 0, 10);
      Duration expected =
          switch (backoff) {
            case EXPONENTIAL -> cap;
            case LINEAR -> Duration.ofMillis(attempt);
            case CONSTANT -> Duration.ofMillis(1);
          };
      assertThat(policy.delayAfter(attempt, cap, 0)).as("%s", backoff).isEqualTo(expected);
    }
  }

  @Test
  void exponentialStopsDoublingAtTwoToTheSixtySecond() {
    RetryPolicy policy =
        RetryPolicy.of(Backoff.EXPONENTIAL, Duration.ofMillis(1), RetryPolicy.MAX_DELAY, 0, 10);
    assertThat(policy.delayAfter(34, RetryPolicy.MAX_DELAY, 0))
        .isEqualTo(Duration.ofMillis(1L << 33));
    assertThat(policy.delayAfter(Integer.MAX_VALUE, RetryPolicy.MAX_DELAY, 0))
        .isEqualTo(RetryPolicy.MAX_DELAY);
  }

  @Test
  void allowsAnotherAttempt_untilMaxAttemptsHaveStarted() {
    RetryPolicy policy = RetryPolicy.defaults().withMaxAttempts(3);
    assertThat(policy.allowsAnotherAttempt(0)).isTrue();
    assertThat(policy.allowsAnotherAttempt(2)).isTrue();
    assertThat(policy.allowsAnotherAttempt(3)).isFalse();
    assertThat(policy.allowsAnotherAttempt(4)).isFalse();
  }

  @Test
  void aSingleAttemptPolicyNeverRetries() {
    assertThat(RetryPolicy.defaults().withMaxAttempts(1).allowsAnotherAttempt(1)).isFalse();
  }

  @Test
  void withMaxAttempts_keepsTheRestAndValidates() {
    RetryPolicy policy =
        RetryPolicy.of(Backoff.LINEAR, Duration.ofMillis(250), Duration.ofMinutes(1), 0.1, 5);
    RetryPolicy copy = policy.withMaxAttempts(9);
    assertThat(copy.maxAttempts()).isEqualTo(9);
    assertThat(copy.withMaxAttempts(5)).isEqualTo(policy);
    assertThatThrownBy(() -> policy.withMaxAttempts(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxAttempts");
  }

  @Test
  void defaults_areExponentialFromOneSecondCappedAtTenMinutes() {
    RetryPolicy policy = RetryPolicy.defaults();
    assertThat(policy.backoff()).isEqualTo(Backoff.EXPONENTIAL);
    assertThat(policy.base()).isEqualTo(Duration.ofSeconds(1));
    assertThat(policy.cap()).isEqualTo(Duration.ofMinutes(10));
    assertThat(policy.jitter()).isEqualTo(0.2);
    assertThat(policy.maxAttempts()).isEqualTo(20);
  }

  @Test
  void backoff_dbValuesMatchTheSchemaCheckConstraint() {
    assertThat(Backoff.EXPONENTIAL.dbValue()).isEqualTo("exponential");
    assertThat(Backoff.LINEAR.dbValue()).isEqualTo("linear");
    assertThat(Backoff.CONSTANT.dbValue()).isEqualTo("constant");
  }

  @Test
  void equalPoliciesAreEqualAndPrintTheirSettings() {
    RetryPolicy a =
        RetryPolicy.of(Backoff.LINEAR, Duration.ofMillis(250), Duration.ofMinutes(1), 0.1, 5);
    RetryPolicy b =
        RetryPolicy.of(Backoff.LINEAR, Duration.ofMillis(250), Duration.ofMinutes(1), 0.1, 5);
    assertThat(a).isEqualTo(b).hasSameHashCodeAs(b).isNotEqualTo(RetryPolicy.defaults());
    assertThat(a).isNotEqualTo(a.withMaxAttempts(6));
    assertThat(a.toString()).contains("linear", "PT0.25S", "PT1M", "0.1", "maxAttempts=5");
  }

  @Test
  void base_belowOneMillisecondIsRejectedNamingTheArgumentAndRange() {
    assertThatThrownBy(
            () -> RetryPolicy.of(Backoff.CONSTANT, Duration.ZERO, Duration.ofSeconds(1), 0, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("retry base must be a whole number of milliseconds in [1ms, 365d], was PT0S");
    assertThatThrownBy(
            () ->
                RetryPolicy.of(
                    Backoff.CONSTANT, Duration.ofMillis(-5), Duration.ofSeconds(1), 0, 1))
        .hasMessageContaining("retry base")
        .hasMessageContaining("PT-0.005S");
  }

  @Test
  void base_andCapWithASubMillisecondPartAreRejectedRatherThanTruncated() {
    assertThatThrownBy(
            () ->
                RetryPolicy.of(
                    Backoff.CONSTANT, Duration.ofNanos(1_500_000), Duration.ofSeconds(1), 0, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("retry base must be a whole number of milliseconds");
    assertThatThrownBy(
            () ->
                RetryPolicy.of(
                    Backoff.CONSTANT,
                    Duration.ofSeconds(1),
                    Duration.ofSeconds(2).plusNanos(1),
                    0,
                    1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("retry cap must be a whole number of milliseconds in [1000ms, 365d]");
  }

  @Test
  void base_andCapAboveAYearAreRejected() {
    Duration tooLong = RetryPolicy.MAX_DELAY.plusMillis(1);
    assertThatThrownBy(() -> RetryPolicy.of(Backoff.CONSTANT, tooLong, tooLong, 0, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("retry base");
    assertThatThrownBy(() -> RetryPolicy.of(Backoff.CONSTANT, Duration.ofSeconds(1), tooLong, 0, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("retry cap");
    assertThatThrownBy(
            () ->
                RetryPolicy.of(
                    Backoff.CONSTANT,
                    Duration.ofSeconds(1),
                    Duration.ofSeconds(Long.MAX_VALUE),
                    0,
                    1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("retry cap");
  }

  @Test
  void cap_belowTheBaseIsRejectedNamingTheBase() {
    assertThatThrownBy(
            () ->
                RetryPolicy.of(
                    Backoff.CONSTANT, Duration.ofSeconds(5), Duration.ofSeconds(4), 0, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("retry cap must be a whole number of milliseconds in [5000ms, 365d], was PT4S");
  }

  @ParameterizedTest
  @ValueSource(doubles = {-0.01, 1.01, Double.NaN, Double.POSITIVE_INFINITY})
  void jitter_outsideZeroToOneIsRejected(double jitter) {
    assertThatThrownBy(
            () ->
                RetryPolicy.of(
                    Backoff.CONSTANT, Duration.ofSeconds(1), Duration.ofSeconds(1), jitter, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("retry jitter must be in [0, 1], was " + jitter);
  }

  @ParameterizedTest
  @ValueSource(ints = {0, -1, 1_000_001})
  void maxAttempts_outsideItsRangeIsRejected(int attempts) {
    assertThatThrownBy(
            () ->
                RetryPolicy.of(
                    Backoff.CONSTANT, Duration.ofSeconds(1), Duration.ofSeconds(1), 0, attempts))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("retry maxAttempts must be in [1, 1000000], was " + attempts);
  }

  @Test
  void nullArgumentsAreRejectedByName() {
    Duration second = Duration.ofSeconds(1);
    assertThatThrownBy(() -> RetryPolicy.of(null, second, second, 0, 1))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("backoff");
    assertThatThrownBy(() -> RetryPolicy.of(Backoff.LINEAR, null, second, 0, 1))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("base");
    assertThatThrownBy(() -> RetryPolicy.of(Backoff.LINEAR, second, null, 0, 1))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("cap");
  }

  @Test
  void delayAfter_rejectsANegativeCeiling() {
    assertThatThrownBy(() -> RetryPolicy.defaults().delayAfter(1, Duration.ofMillis(-1), 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxRetryBackoff must not be negative, was PT-0.001S");
  }

  @ParameterizedTest
  @ValueSource(doubles = {-0.5, 1.5, Double.NaN})
  void delayAfter_rejectsARandomDrawOutsideZeroToOne(double u) {
    assertThatThrownBy(() -> RetryPolicy.defaults().delayAfter(1, NO_CEILING, u))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("u must be in [0, 1], was " + u);
  }
}
