package io.taskq.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.RedisClient;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.taskq.limits.Decision;
import io.taskq.limits.Gcra;
import io.taskq.limits.RateLimit;
import io.taskq.limits.SlidingWindowLog;
import io.taskq.limits.TokenBucket;
import io.taskq.limits.UnavailablePolicy;
import io.taskq.progress.Progress;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Keys and channels are exactly the guide's (M5, D13), and schemas never share them (M6). */
@TaskQTest
@Tag("M5")
@Tag("M6")
class RedisKeyLayoutTest {
  private static final UnavailablePolicy STRICT =
      UnavailablePolicy.failClosed(Duration.ofSeconds(1));

  private static RedisConnector mine;
  private static RedisConnector other;
  private static RawRedis raw;
  private static String otherSchema;

  @BeforeAll
  static void connect(TestServices services) {
    otherSchema = services.schema() + "_other";
    mine = RawRedis.connector(services);
    other = RawRedis.connector(services, otherSchema);
    raw = RawRedis.to(services);
  }

  @AfterAll
  static void close() {
    raw.deleteKeysStartingWith("taskq:" + otherSchema + ":");
    raw.close();
    mine.close();
    other.close();
  }

  static Stream<RateLimit> limitsOfTwo() {
    return Stream.of(
        TokenBucket.of(2, 1, Duration.ofHours(1)),
        SlidingWindowLog.of(2, Duration.ofHours(1)),
        Gcra.of(1, Duration.ofHours(1), 2));
  }

  @Test
  void eachAlgorithm_keepsItsStateAtExactlyTheGuidesKey(TestServices services) {
    String s = services.schema();
    limitsOfTwo()
        .forEach(limit -> RedisRateLimiter.create(mine, limit, STRICT).tryAcquire("layout"));

    List<String> keys =
        raw.keysStartingWith("taskq:" + s + ":").stream()
            .filter(key -> key.endsWith(":layout"))
            .toList();
    assertThat(keys)
        .containsExactly(
            "taskq:" + s + ":rl:tb:layout",
            "taskq:" + s + ":sw:layout",
            "taskq:" + s + ":sw_gcra:layout");
    for (String key : keys) {
      assertThat(raw.sync().pttl(key)).as("TTL of %s", key).isPositive();
    }
  }

  @Test
  void bucketApiInSchemaTaskq_isTheDocumentedExample(TestServices services) {
    // D13's example, spelled out: bucket api in schema taskq -> taskq:taskq:rl:tb:api
    assertThat(mine.keys().tokenBucket("api"))
        .isEqualTo("taskq:" + services.schema() + ":rl:tb:api");
    assertThat(
            io.taskq.core.internal.RedisKeys.of(io.taskq.SchemaName.of("taskq")).tokenBucket("api"))
        .isEqualTo("taskq:taskq:rl:tb:api");
  }

  @ParameterizedTest
  @MethodSource("limitsOfTwo")
  void twoSchemas_neverShareALimit(RateLimit limit) {
    RedisRateLimiter inMine = RedisRateLimiter.create(mine, limit, STRICT);
    RedisRateLimiter inOther = RedisRateLimiter.create(other, limit, STRICT);
    String name = "shared-" + limit.algorithm();

    assertThat(inMine.tryAcquire(name, 2).allowed()).isTrue();
    assertThat(inMine.tryAcquire(name).allowed()).as("mine is exhausted").isFalse();

    Decision first = inOther.tryAcquire(name, 2);
    assertThat(first.allowed()).as("the other schema's %s is untouched", name).isTrue();
    assertThat(first.remaining()).isZero();
  }

  @Test
  void progress_isStoredAtTheJobsKeyAndPublishedOnTheSchemaChannel(TestServices services)
      throws Exception {
    String s = services.schema();
    Queue<String> heard = new ConcurrentLinkedQueue<>();
    RedisClient listener = RedisClient.create(services.redisUri());
    try (StatefulRedisPubSubConnection<String, String> pubSub = listener.connectPubSub();
        RedisProgressStore store = RedisProgressStore.builder(mine).build()) {
      pubSub.addListener(
          new RedisPubSubAdapter<>() {
            @Override
            public void message(String channel, String message) {
              heard.add(channel + " " + message);
            }
          });
      pubSub.sync().subscribe("taskq:" + s + ":progress");

      store.report(42, 0.25, "a quarter");

      assertThat(raw.sync().exists("taskq:" + s + ":progress:42")).isEqualTo(1L);
      assertThat(raw.sync().hget("taskq:" + s + ":progress:42", "message")).isEqualTo("a quarter");
      await().atMost(Duration.ofSeconds(10)).until(() -> !heard.isEmpty());
      assertThat(heard.peek())
          .startsWith("taskq:" + s + ":progress {\"job_id\":42,\"fraction\":0.25,")
          .contains("\"message\":\"a quarter\"", "\"detail\":null");
    } finally {
      listener.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
  }

  @Test
  void twoSchemas_neverShareProgress() {
    Queue<Progress> mineHeard = new ConcurrentLinkedQueue<>();
    Queue<Progress> otherHeard = new ConcurrentLinkedQueue<>();
    try (RedisProgressStore inMine = RedisProgressStore.builder(mine).build();
        RedisProgressStore inOther = RedisProgressStore.builder(other).build()) {
      inMine.subscribeAll(mineHeard::add);
      inOther.subscribeAll(otherHeard::add);

      inMine.report(7, 0.5, "mine");
      await().atMost(Duration.ofSeconds(10)).until(() -> !mineHeard.isEmpty());
      assertThat(inOther.latest(7)).as("the other schema's job 7").isEmpty();

      inOther.report(7, 0.9, "other");
      await().atMost(Duration.ofSeconds(10)).until(() -> !otherHeard.isEmpty());
      // The other schema's listener was subscribed before "mine" was published, and has now heard
      // a later message: had "mine" crossed schemas it would have arrived first.
      assertThat(otherHeard).extracting(Progress::message).containsExactly("other");
      assertThat(mineHeard).extracting(Progress::message).containsExactly("mine");
      assertThat(inMine.latest(7)).map(Progress::message).hasValue("mine");
      assertThat(List.of(inOther.latest(7).orElseThrow().message())).containsExactly("other");
    }
  }
}
