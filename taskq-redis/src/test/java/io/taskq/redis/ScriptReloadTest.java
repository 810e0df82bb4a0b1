package io.taskq.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.SchemaName;
import io.taskq.limits.Decision;
import io.taskq.limits.Gcra;
import io.taskq.limits.RateLimit;
import io.taskq.limits.SlidingWindowLog;
import io.taskq.limits.TokenBucket;
import io.taskq.limits.UnavailablePolicy;
import io.taskq.redis.internal.LimitScript;
import io.taskq.redis.internal.LuaScript;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import io.taskq.testing.servers.PrivateRedis;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Scripts are loaded once and then called by SHA; when Redis forgets them ({@code SCRIPT FLUSH}, a
 * restart, a failover) the next call reloads and answers as if nothing happened (D13).
 *
 * <p>{@code SCRIPT FLUSH} empties the script cache of the whole server, so the test runs on a Redis
 * of its own (R8), never the shared one.
 */
@TaskQTest
@Tag("M5")
@Tag("R8")
class ScriptReloadTest {
  private static final UnavailablePolicy FAIL = UnavailablePolicy.failClosed(Duration.ofSeconds(1));

  private static PrivateRedis redis;
  private static RedisConnector connector;
  private static RawRedis raw;

  @BeforeAll
  static void connect(TestServices services) {
    redis = PrivateRedis.start();
    connector =
        RedisConnector.create(redis.uri(), Duration.ofSeconds(2), SchemaName.of(services.schema()));
    raw = RawRedis.to(redis.uri());
  }

  @AfterAll
  static void close() {
    raw.close();
    connector.close();
    redis.close();
  }

  static Stream<RateLimit> limitsOfFive() {
    return Stream.of(
        TokenBucket.of(5, 1, Duration.ofHours(1)),
        SlidingWindowLog.of(5, Duration.ofHours(1)),
        Gcra.of(1, Duration.ofHours(1), 5));
  }

  @ParameterizedTest
  @MethodSource("limitsOfFive")
  void scriptFlushBetweenCalls_isSurvivedTransparently(RateLimit limit) {
    RedisRateLimiter limiter = RedisRateLimiter.create(connector, limit, FAIL);
    LuaScript script = LimitScript.of(limit, connector.keys()).script();
    String name = "flush-" + limit.algorithm();

    assertThat(limiter.tryAcquire(name)).isEqualTo(Decision.allowed(4));
    int loadsBefore = script.loads();
    assertThat(limiter.tryAcquire(name)).isEqualTo(Decision.allowed(3));
    assertThat(script.loads()).as("called by SHA, not loaded again").isEqualTo(loadsBefore);

    assertThat(raw.sync().scriptFlush()).isEqualTo("OK");
    assertThat(raw.sync().scriptExists(script.sha())).containsExactly(false);

    assertThat(limiter.tryAcquire(name)).isEqualTo(Decision.allowed(2));
    assertThat(script.loads()).as("reloaded once after NOSCRIPT").isEqualTo(loadsBefore + 1);
    assertThat(raw.sync().scriptExists(script.sha())).containsExactly(true);
  }

  @ParameterizedTest
  @MethodSource("limitsOfFive")
  void scriptFlushBeforeTheVeryFirstCall_isSurvivedToo(RateLimit limit) {
    raw.sync().scriptFlush();
    RedisRateLimiter limiter = RedisRateLimiter.create(connector, limit, FAIL);

    assertThat(limiter.tryAcquire("fresh-" + limit.algorithm(), 5)).isEqualTo(Decision.allowed(0));
  }
}
