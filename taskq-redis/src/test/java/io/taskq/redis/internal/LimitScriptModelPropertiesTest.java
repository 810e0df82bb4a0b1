package io.taskq.redis.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanIterator;
import io.lettuce.core.api.sync.RedisCommands;
import io.taskq.SchemaName;
import io.taskq.core.internal.RedisKeys;
import io.taskq.limits.Decision;
import io.taskq.limits.Gcra;
import io.taskq.limits.RateLimit;
import io.taskq.limits.SlidingWindowLog;
import io.taskq.limits.TokenBucket;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * Each Lua script decides exactly as its reference model ({@link LimitModel}) along random
 * timelines: same admissions, same retry-after, same remaining, call by call.
 *
 * <p>The scripts take the instant from the test here (their test-only argument) so script and model
 * see the same timeline, however slowly the calls really run. Under a test clock the scripts keep
 * their keys for an hour, so Redis's real-time expiry cannot interfere; expiry never changes a
 * decision anyway (a key past its horizon decides like a missing key), which the real-clock tests
 * check.
 *
 * <p>jqwik does not run JUnit Jupiter extensions, so this class finds Redis as the harness does
 * ({@code taskq.test.redis.url}, {@code TASKQ_TEST_REDIS_URL}, else the local server) and removes
 * its own keys afterwards.
 */
@Tag("M5")
class LimitScriptModelPropertiesTest {
  private static final RedisLink LINK = RedisLink.open(redisUrl(), Duration.ofSeconds(10));
  private static final RedisKeys KEYS =
      RedisKeys.of(
          SchemaName.of("rlprop_" + Long.toHexString(ThreadLocalRandom.current().nextLong())));
  private static final AtomicLong NAMES = new AtomicLong();

  /** One step of a timeline: advance by {@code percent}% of the limit's unit, then ask. */
  record Step(int percent, int extraMicros, int permitsSeed) {}

  @Property(tries = 40)
  void tokenBucket_decidesExactlyAsItsModel(
      @ForAll @IntRange(min = 1, max = 8) int capacity,
      @ForAll @IntRange(min = 1, max = 4) int refillTokens,
      @ForAll @IntRange(min = 1, max = 200) int periodMillis,
      @ForAll("timelines") List<Step> timeline) {
    TokenBucket bucket = TokenBucket.of(capacity, refillTokens, Duration.ofMillis(periodMillis));
    assertMatchesModel(bucket, bucket.refillIntervalMicros(), timeline);
  }

  @Property(tries = 40)
  void slidingWindowLog_decidesExactlyAsItsModel(
      @ForAll @IntRange(min = 1, max = 8) int limit,
      @ForAll @IntRange(min = 1, max = 200) int windowMillis,
      @ForAll("timelines") List<Step> timeline) {
    SlidingWindowLog log = SlidingWindowLog.of(limit, Duration.ofMillis(windowMillis));
    assertMatchesModel(log, log.windowMicros() / limit, timeline);
  }

  @Property(tries = 40)
  void gcra_decidesExactlyAsItsModel(
      @ForAll @IntRange(min = 1, max = 4) int rate,
      @ForAll @IntRange(min = 1, max = 200) int periodMillis,
      @ForAll @IntRange(min = 1, max = 8) int burst,
      @ForAll("timelines") List<Step> timeline) {
    Gcra gcra = Gcra.of(rate, Duration.ofMillis(periodMillis), burst);
    assertMatchesModel(gcra, gcra.emissionIntervalMicros(), timeline);
  }

  @Provide
  Arbitrary<List<Step>> timelines() {
    Arbitrary<Step> step =
        Combinators.combine(
                Arbitraries.integers().between(0, 300).edgeCases(e -> e.add(0, 100)),
                Arbitraries.integers().between(0, 999),
                Arbitraries.integers().between(0, 1000))
            .as(Step::new);
    return step.list().ofMinSize(1).ofMaxSize(40);
  }

  private static void assertMatchesModel(RateLimit limit, long unitMicros, List<Step> timeline) {
    LimitScript script = LimitScript.of(limit, KEYS);
    LimitModel model = LimitModel.of(limit);
    String name = "p" + NAMES.incrementAndGet();
    RedisCommands<String, String> redis = LINK.commands();
    long simulated = Instant.now().truncatedTo(ChronoUnit.SECONDS).toEpochMilli() * 1000;
    List<String> trace = new ArrayList<>();
    for (Step step : timeline) {
      simulated += unitMicros * step.percent() / 100 + step.extraMicros();
      int permits = 1 + step.permitsSeed() % limit.maxPermits();
      Decision expected = model.decide(simulated, permits);
      Decision actual = script.decide(redis, name, permits, simulated);
      trace.add("t=" + simulated + " n=" + permits + " -> " + actual);
      assertThat(actual).as("%s after %s", limit, trace).isEqualTo(expected);
    }
  }

  @AfterContainer
  static void removeKeysAndClose() {
    RedisCommands<String, String> redis = LINK.commands();
    String pattern = RedisKeys.of(KEYS.schema()).tokenBucket("x").replace("rl:tb:x", "*");
    ScanIterator.scan(redis, ScanArgs.Builder.matches(pattern).limit(500))
        .forEachRemaining(redis::del);
    LINK.close();
  }

  private static String redisUrl() {
    String fromProperty = System.getProperty("taskq.test.redis.url");
    if (fromProperty != null && !fromProperty.isBlank()) {
      return fromProperty;
    }
    String fromEnv = System.getenv("TASKQ_TEST_REDIS_URL");
    return fromEnv != null && !fromEnv.isBlank() ? fromEnv : "redis://127.0.0.1:6379";
  }
}
