package io.taskq.redis.internal;

import io.lettuce.core.api.sync.RedisCommands;
import io.taskq.core.internal.RedisKeys;
import io.taskq.limits.Decision;
import io.taskq.limits.Gcra;
import io.taskq.limits.RateLimit;
import io.taskq.limits.SlidingWindowLog;
import io.taskq.limits.TokenBucket;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * One limit's Redis script: which key it touches (M5) and the arguments it takes.
 *
 * <p>The scripts read the server's clock ({@code TIME}), so every process sharing a limit agrees on
 * time however skewed their own clocks are. A test may pass an explicit instant instead, to drive a
 * script and its reference model through the same timeline; production code never does.
 */
public final class LimitScript {
  private static final LuaScript TOKEN_BUCKET = LuaScript.fromResource("token_bucket.lua");
  private static final LuaScript SLIDING_WINDOW_LOG =
      LuaScript.fromResource("sliding_window_log.lua");
  private static final LuaScript GCRA = LuaScript.fromResource("gcra.lua");

  /** Makes sliding-window members unique across processes: random per JVM, then a counter. */
  private static final String PROCESS_NONCE = nonce();

  private static final AtomicLong CALLS = new AtomicLong();

  private final RateLimit limit;
  private final RedisKeys keys;

  private LimitScript(RateLimit limit, RedisKeys keys) {
    this.limit = limit;
    this.keys = keys;
  }

  /** The script of {@code limit} on the keys of one schema. */
  public static LimitScript of(RateLimit limit, RedisKeys keys) {
    return new LimitScript(limit, keys);
  }

  /** The key the limit named {@code name} lives at; validates the name (F6, M7). */
  public String key(String name) {
    RedisKeys.requireStoreBound(name);
    return switch (limit.algorithm()) {
      case TOKEN_BUCKET -> keys.tokenBucket(name);
      case SLIDING_WINDOW_LOG -> keys.slidingWindow(name);
      case GCRA -> keys.gcra(name);
    };
  }

  /** The Lua script this limit runs. */
  public LuaScript script() {
    return switch (limit.algorithm()) {
      case TOKEN_BUCKET -> TOKEN_BUCKET;
      case SLIDING_WINDOW_LOG -> SLIDING_WINDOW_LOG;
      case GCRA -> GCRA;
    };
  }

  /**
   * Asks Redis for {@code permits} of {@code name}.
   *
   * @param nowMicros the instant the script uses, in µs since the epoch; {@code null} (always, in
   *     production) for the server's clock
   * @throws io.lettuce.core.RedisException when Redis does not answer; see {@link RedisFailures}
   */
  public Decision decide(
      RedisCommands<String, String> redis, String name, int permits, @Nullable Long nowMicros) {
    String key = key(name);
    limit.requirePermits(permits);
    List<Object> answer = script().multi(redis, key, args(permits, nowMicros));
    return decision(answer);
  }

  private String[] args(int permits, @Nullable Long nowMicros) {
    String now = nowMicros == null ? "" : Long.toString(nowMicros);
    String n = Integer.toString(permits);
    if (limit instanceof TokenBucket bucket) {
      return new String[] {
        Integer.toString(bucket.capacity()), Long.toString(bucket.refillIntervalMicros()), n, now
      };
    }
    if (limit instanceof SlidingWindowLog window) {
      String member = PROCESS_NONCE + ":" + CALLS.incrementAndGet();
      return new String[] {
        Integer.toString(window.limit()), Long.toString(window.windowMicros()), n, member, now
      };
    }
    Gcra gcra = (Gcra) limit;
    return new String[] {
      Long.toString(gcra.emissionIntervalMicros()), Integer.toString(gcra.burst()), n, now
    };
  }

  private static Decision decision(List<Object> answer) {
    boolean allowed = ((Long) answer.get(0)) == 1L;
    long retryMicros = (Long) answer.get(1);
    long remaining = (Long) answer.get(2);
    return allowed
        ? Decision.allowed(remaining)
        : Decision.denied(Duration.of(retryMicros, ChronoUnit.MICROS), remaining);
  }

  private static String nonce() {
    byte[] bytes = new byte[8];
    new SecureRandom().nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }

  @Override
  public String toString() {
    return "LimitScript{" + limit + "}";
  }
}
