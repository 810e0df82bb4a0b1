package io.taskq.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The three limits validate their parameters and turn them into whole microseconds. */
@Tag("M5")
class RateLimitTest {
  @Test
  void tokenBucket_intervalIsThePeriodSharedByItsTokens() {
    TokenBucket bucket = TokenBucket.of(20, 10, Duration.ofSeconds(1));

    assertThat(bucket.refillIntervalMicros()).isEqualTo(100_000);
    assertThat(bucket.maxPermits()).isEqualTo(20);
    assertThat(bucket.algorithm()).isEqualTo(RateLimit.Algorithm.TOKEN_BUCKET);
  }

  @Test
  void gcra_emissionIntervalIsThePeriodOverTheRate() {
    Gcra gcra = Gcra.of(3, Duration.ofSeconds(1), 5);

    assertThat(gcra.emissionIntervalMicros()).isEqualTo(333_333);
    assertThat(gcra.maxPermits()).isEqualTo(5);
    assertThat(gcra.algorithm()).isEqualTo(RateLimit.Algorithm.GCRA);
  }

  @Test
  void slidingWindow_keepsItsWindowInMicros() {
    SlidingWindowLog log = SlidingWindowLog.of(100, Duration.ofMinutes(1));

    assertThat(log.windowMicros()).isEqualTo(60_000_000);
    assertThat(log.maxPermits()).isEqualTo(100);
    assertThat(log.algorithm()).isEqualTo(RateLimit.Algorithm.SLIDING_WINDOW_LOG);
  }

  @Test
  void badParameters_areRefusedNamingTheArgumentValueAndRange() {
    assertThatThrownBy(() -> TokenBucket.of(0, 1, Duration.ofSeconds(1)))
        .hasMessage("token bucket capacity must be in 1..1000000000, was 0");
    assertThatThrownBy(() -> TokenBucket.of(1, 1, Duration.ZERO))
        .hasMessage("refillPeriod must be in 1µs..366 days, was PT0S");
    assertThatThrownBy(() -> TokenBucket.of(1, 1_000_000, Duration.ofMillis(1)))
        .hasMessageContaining("more than one per microsecond");
    assertThatThrownBy(() -> TokenBucket.of(1_000_000_000, 1, Duration.ofDays(1)))
        .hasMessage("an empty token bucket would take longer than 366 days to drain");
    assertThatThrownBy(() -> SlidingWindowLog.of(2_000_000, Duration.ofSeconds(1)))
        .hasMessage("sliding window limit must be in 1..1000000, was 2000000");
    assertThatThrownBy(() -> SlidingWindowLog.of(1, Duration.ofDays(400)))
        .hasMessage("sliding window must be in 1µs..366 days, was PT9600H");
    assertThatThrownBy(() -> SlidingWindowLog.of(1, Duration.ofNanos(999)))
        .hasMessageContaining("sliding window must be in 1µs..366 days");
    assertThatThrownBy(() -> Gcra.of(1, Duration.ofSeconds(1), 0))
        .hasMessage("GCRA burst must be in 1..1000000000, was 0");
    assertThatThrownBy(() -> Gcra.of(2_000_000, Duration.ofSeconds(1), 1))
        .hasMessageContaining("more than one per microsecond");
  }

  @Test
  void requirePermits_refusesWhatCouldNeverBeGranted() {
    TokenBucket bucket = TokenBucket.of(3, 1, Duration.ofSeconds(1));

    assertThat(bucket.requirePermits(3)).isEqualTo(3);
    assertThatThrownBy(() -> bucket.requirePermits(4))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("permits must be in 1..3")
        .hasMessageEndingWith("was 4");
    assertThatThrownBy(() -> bucket.requirePermits(0)).hasMessageEndingWith("was 0");
  }
}
