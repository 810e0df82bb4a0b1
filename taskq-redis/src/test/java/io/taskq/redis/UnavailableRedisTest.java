package io.taskq.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.taskq.SchemaName;
import io.taskq.limits.Decision;
import io.taskq.limits.Gcra;
import io.taskq.limits.RateLimit;
import io.taskq.limits.RateLimiter;
import io.taskq.limits.SlidingWindowLog;
import io.taskq.limits.TokenBucket;
import io.taskq.limits.UnavailablePolicy;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import io.taskq.testing.servers.PrivateRedis;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Redis unavailable (D14): every call returns within its timeout with the configured policy's
 * decision, marked degraded; nothing hangs, nothing throws for want of Redis; and a stalled server
 * that recovers is used again.
 *
 * <p>"Unreachable" is a closed port on this machine. "Stalled" is {@code CLIENT PAUSE ... WRITE} on
 * a Redis the test starts for itself: the pause stalls every client of the server, so it is never
 * issued on the shared one (R8).
 */
@TaskQTest
@Tag("M5")
@Tag("R8")
class UnavailableRedisTest {
  private static final String CLOSED_PORT = "redis://127.0.0.1:1";
  private static final Duration TIMEOUT = Duration.ofMillis(300);

  /** Generous bound for "returned instead of hanging"; a hang would be unbounded. */
  private static final Duration NO_HANG = Duration.ofSeconds(15);

  private static PrivateRedis redis;
  private static RedisConnector unreachable;
  private static RawRedis raw;

  @BeforeAll
  static void connect(TestServices services) {
    redis = PrivateRedis.start();
    unreachable = RedisConnector.create(CLOSED_PORT, TIMEOUT, SchemaName.of(services.schema()));
    raw = RawRedis.to(redis.uri());
  }

  @AfterAll
  static void close() {
    raw.close();
    unreachable.close();
    redis.close();
  }

  static Stream<RateLimit> limits() {
    return Stream.of(
        TokenBucket.of(5, 1, Duration.ofSeconds(1)),
        SlidingWindowLog.of(5, Duration.ofSeconds(1)),
        Gcra.of(5, Duration.ofSeconds(1), 5));
  }

  @ParameterizedTest
  @MethodSource("limits")
  void failOpen_admitsEveryCall_markedDegraded(RateLimit limit) {
    RedisRateLimiter limiter =
        RedisRateLimiter.create(unreachable, limit, UnavailablePolicy.failOpen());

    List<Decision> decisions = tryManyTimes(limiter, 20);

    assertThat(decisions)
        .allMatch(Decision::allowed)
        .allMatch(Decision::degraded)
        .allMatch(d -> d.remaining() == Decision.UNKNOWN_REMAINING);
    assertThat(unreachable.available()).isFalse();
  }

  @ParameterizedTest
  @MethodSource("limits")
  void failClosed_refusesEveryCallWithItsRetryAfter(RateLimit limit) {
    RedisRateLimiter limiter =
        RedisRateLimiter.create(
            unreachable, limit, UnavailablePolicy.failClosed(Duration.ofMillis(750)));

    List<Decision> decisions = tryManyTimes(limiter, 20);

    assertThat(decisions)
        .allMatch(d -> !d.allowed() && d.degraded())
        .allMatch(d -> d.retryAfter().equals(Duration.ofMillis(750)));
  }

  @ParameterizedTest
  @MethodSource("limits")
  void fallback_asksTheOtherLimiter_withTheSameNameAndPermits(RateLimit limit) {
    List<String> asked = new ArrayList<>();
    RateLimiter secondStore =
        (name, permits) -> {
          asked.add(name + "x" + permits);
          return asked.size() <= 2
              ? Decision.allowed(2 - asked.size())
              : Decision.denied(Duration.ofSeconds(3), 0);
        };
    RedisRateLimiter limiter =
        RedisRateLimiter.create(unreachable, limit, UnavailablePolicy.fallbackTo(secondStore));

    List<Decision> decisions =
        assertTimeoutPreemptively(
            NO_HANG,
            () ->
                List.of(
                    limiter.tryAcquire("api", 2),
                    limiter.tryAcquire("api", 2),
                    limiter.tryAcquire("api", 2)));

    assertThat(asked).containsExactly("apix2", "apix2", "apix2");
    assertThat(decisions)
        .containsExactly(
            new Decision(true, Duration.ZERO, 1, true),
            new Decision(true, Duration.ZERO, 0, true),
            new Decision(false, Duration.ofSeconds(3), 0, true));
  }

  @Test
  void badInput_isStillRefusedWhileRedisIsDown() {
    RedisRateLimiter limiter =
        RedisRateLimiter.create(
            unreachable, TokenBucket.of(5, 1, Duration.ofSeconds(1)), UnavailablePolicy.failOpen());

    assertThatThrownBy(() -> limiter.tryAcquire("a\u0000b"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("NUL");
    assertThatThrownBy(() -> limiter.tryAcquire("api", 6))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("permits must be in 1..5");
  }

  @Test
  void stalledServer_answersByPolicyWithinTheTimeout_thenRecovers(TestServices services) {
    try (RedisConnector stalled =
        RedisConnector.create(
            redis.uri(), Duration.ofMillis(100), SchemaName.of(services.schema()))) {
      RedisRateLimiter limiter =
          RedisRateLimiter.create(
              stalled,
              Gcra.of(100, Duration.ofSeconds(1), 100),
              UnavailablePolicy.failClosed(Duration.ofMillis(500)));
      assertThat(limiter.tryAcquire("stall").degraded()).as("before the pause").isFalse();

      pauseWrites(Duration.ofMillis(600));
      Decision during = assertTimeoutPreemptively(NO_HANG, () -> limiter.tryAcquire("stall"));

      assertThat(during).isEqualTo(new Decision(false, Duration.ofMillis(500), -1, true));
      assertThat(stalled.available()).isFalse();
      await()
          .atMost(Duration.ofSeconds(10))
          .pollInterval(Duration.ofMillis(50))
          .until(() -> !limiter.tryAcquire("stall").degraded());
      assertThat(stalled.available()).isTrue();
    }
  }

  /**
   * {@code CLIENT PAUSE <ms> WRITE}: scripts that write wait; reads and other clients' reads go on.
   */
  private static void pauseWrites(Duration pause) {
    String answer =
        raw.sync()
            .dispatch(
                CommandType.CLIENT,
                new StatusOutput<>(StringCodec.UTF8),
                new CommandArgs<>(StringCodec.UTF8)
                    .add("PAUSE")
                    .add(pause.toMillis())
                    .add("WRITE"));
    assertThat(answer).isEqualTo("OK");
  }

  @Test
  void wrongTypeAtTheKey_isADefect_notAnOutage(TestServices services) {
    RedisConnector healthy =
        RedisConnector.create(redis.uri(), Duration.ofSeconds(2), SchemaName.of(services.schema()));
    try {
      raw.sync().set("taskq:" + services.schema() + ":rl:tb:typo", "not a hash");
      RedisRateLimiter limiter =
          RedisRateLimiter.create(
              healthy, TokenBucket.of(5, 1, Duration.ofSeconds(1)), UnavailablePolicy.failOpen());

      assertThatThrownBy(() -> limiter.tryAcquire("typo"))
          .isInstanceOf(RedisCommandExecutionException.class)
          .hasMessageContaining("WRONGTYPE");
    } finally {
      healthy.close();
    }
  }

  private static List<Decision> tryManyTimes(RateLimiter limiter, int times) {
    AtomicInteger calls = new AtomicInteger();
    return assertTimeoutPreemptively(
        NO_HANG,
        () -> {
          List<Decision> decisions = new ArrayList<>();
          while (calls.incrementAndGet() <= times) {
            decisions.add(limiter.tryAcquire("api"));
          }
          return decisions;
        });
  }
}
