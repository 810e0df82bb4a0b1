package io.taskq.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.taskq.limits.Decision;
import io.taskq.limits.Gcra;
import io.taskq.limits.RateLimit;
import io.taskq.limits.SlidingWindowLog;
import io.taskq.limits.TokenBucket;
import io.taskq.limits.UnavailablePolicy;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * On the server's real clock, an exhausted limit tells how long to wait, admits again once time has
 * passed, and an idle name's key expires and leaves the limit as fresh as a new one.
 */
@TaskQTest
@Tag("M5")
class RateLimiterRefillTest {
  private static final UnavailablePolicy FAIL = UnavailablePolicy.failClosed(Duration.ofSeconds(1));
  private static final Duration WINDOW = Duration.ofMillis(300);

  private static RedisConnector connector;
  private static RawRedis raw;

  @BeforeAll
  static void connect(TestServices services) {
    connector = RawRedis.connector(services);
    raw = RawRedis.to(services);
  }

  @AfterAll
  static void close() {
    raw.close();
    connector.close();
  }

  /** Three permits per 300 ms, each way. */
  static Stream<RateLimit> threePerWindow() {
    return Stream.of(
        TokenBucket.of(3, 3, WINDOW), SlidingWindowLog.of(3, WINDOW), Gcra.of(3, WINDOW, 3));
  }

  @ParameterizedTest
  @MethodSource("threePerWindow")
  void exhaustedLimit_namesAWaitWithinTheWindow_andAdmitsAgainLater(RateLimit limit) {
    RedisRateLimiter limiter = RedisRateLimiter.create(connector, limit, FAIL);
    String name = "refill-" + limit.algorithm();
    for (int i = 0; i < 3; i++) {
      assertThat(limiter.tryAcquire(name).allowed()).as("permit %d of 3", i + 1).isTrue();
    }
    Decision refused = limiter.tryAcquire(name);
    // Unless the machine stalled for a whole window between the calls, the fourth is refused.
    assertThat(refused.allowed()).isFalse();
    assertThat(refused.retryAfter()).isPositive().isLessThanOrEqualTo(WINDOW);
    assertThat(refused.degraded()).isFalse();

    AtomicReference<Decision> later = new AtomicReference<>();
    await()
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(20))
        .until(() -> later.updateAndGet(d -> limiter.tryAcquire(name)).allowed());
    assertThat(later.get().degraded()).isFalse();
  }

  @Test
  void idleName_keyExpires_andTheLimitIsFreshAgain(TestServices services) {
    Gcra limit = Gcra.of(1, Duration.ofMillis(100), 2);
    RedisRateLimiter limiter = RedisRateLimiter.create(connector, limit, FAIL);
    String key = "taskq:" + services.schema() + ":sw_gcra:idle";

    limiter.tryAcquire("idle", 2);
    long ttl = raw.sync().pttl(key);
    // horizon (2 intervals = 200 ms) plus the 1 s slack that keeps expiry behind the horizon
    assertThat(ttl).isPositive().isLessThanOrEqualTo(1200);

    await().atMost(Duration.ofSeconds(10)).until(() -> raw.sync().exists(key) == 0);
    assertThat(limiter.tryAcquire("idle", 2)).isEqualTo(Decision.allowed(0));
  }

  @Test
  void idleTokenBucket_keyExpiresOnceRefilled(TestServices services) {
    RedisRateLimiter limiter =
        RedisRateLimiter.create(connector, TokenBucket.of(1, 1, Duration.ofMillis(50)), FAIL);
    String key = "taskq:" + services.schema() + ":rl:tb:brief";

    assertThat(limiter.tryAcquire("brief").allowed()).isTrue();
    assertThat(raw.sync().pttl(key)).isPositive().isLessThanOrEqualTo(1050);
    await().atMost(Duration.ofSeconds(10)).until(() -> raw.sync().exists(key) == 0);
  }
}
