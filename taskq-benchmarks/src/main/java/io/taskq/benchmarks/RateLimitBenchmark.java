package io.taskq.benchmarks;

import io.lettuce.core.RedisClient;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanIterator;
import io.lettuce.core.api.StatefulRedisConnection;
import io.taskq.SchemaName;
import io.taskq.limits.Gcra;
import io.taskq.limits.RateLimit;
import io.taskq.limits.SlidingWindowLog;
import io.taskq.limits.TokenBucket;
import io.taskq.limits.UnavailablePolicy;
import io.taskq.redis.RedisConnector;
import io.taskq.redis.RedisRateLimiter;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * Rate-limit decisions per second against Redis, for each algorithm: {@code threads} callers
 * sharing one connector ask for one permit of a random name among {@value LimiterLoad#NAMES} until
 * {@code decisions} answers came back. Each name admits 20 per second after a burst of 20, so a run
 * of a few seconds both admits and refuses, and both paths of each script are measured.
 *
 * <p>Standalone: {@code java -cp ... io.taskq.benchmarks.RateLimitBenchmark [decisions] [threads]}
 * (reads {@code TASKQ_REDIS_URL}, else the local Redis). From {@link Benchmark}: call {@link
 * #measure(Figures, String, int, int)} once per run. Keys live under schema {@value #SCHEMA} and
 * are deleted afterwards.
 */
public final class RateLimitBenchmark {
  static final String SCHEMA = "taskq_bench";
  static final String LOCAL_REDIS = "redis://127.0.0.1:6379";

  private RateLimitBenchmark() {}

  public static void main(String[] args) throws Exception {
    int decisions = args.length > 0 ? Integer.parseInt(args[0]) : 50_000;
    int threads = args.length > 1 ? Integer.parseInt(args[1]) : 8;
    measure(new Figures(), redisUrl(), decisions, threads);
  }

  /** The Redis to measure: {@code TASKQ_REDIS_URL}, else the local server. */
  static String redisUrl() {
    return System.getenv().getOrDefault("TASKQ_REDIS_URL", LOCAL_REDIS);
  }

  /**
   * Adds {@code redis.<algorithm>.decision_rate} (decisions/s) and {@code
   * redis.<algorithm>.admitted} (% admitted) for each algorithm to {@code figures}.
   */
  static void measure(Figures figures, String redisUrl, int decisions, int threads)
      throws Exception {
    System.out.printf(
        Locale.ROOT, "Rate limits: %d decisions per algorithm, %d threads%n", decisions, threads);
    try (RedisConnector connector =
        RedisConnector.create(redisUrl, Duration.ofSeconds(5), SchemaName.of(SCHEMA))) {
      for (RateLimit limit : limits()) {
        String algorithm = limit.algorithm().name().toLowerCase(Locale.ROOT);
        RedisRateLimiter limiter =
            RedisRateLimiter.create(connector, limit, UnavailablePolicy.failOpen());
        limiter.tryAcquire("warm-up");
        long started = System.nanoTime();
        long admitted = LimiterLoad.admitted(limiter, decisions, threads);
        double seconds = (System.nanoTime() - started) / 1e9;
        figures.add("redis." + algorithm + ".decision_rate", "decisions/s", decisions / seconds);
        figures.add("redis." + algorithm + ".admitted", "%", 100.0 * admitted / decisions);
      }
    } finally {
      deleteKeys(redisUrl);
    }
  }

  /** 20 per second per name, bursts of 20. */
  private static List<RateLimit> limits() {
    return List.of(
        TokenBucket.of(20, 20, Duration.ofSeconds(1)),
        SlidingWindowLog.of(20, Duration.ofSeconds(1)),
        Gcra.of(20, Duration.ofSeconds(1), 20));
  }

  private static void deleteKeys(String redisUrl) {
    RedisClient client = RedisClient.create(redisUrl);
    try (StatefulRedisConnection<String, String> connection = client.connect()) {
      ScanIterator.scan(
              connection.sync(), ScanArgs.Builder.matches("taskq:" + SCHEMA + ":*").limit(1000))
          .forEachRemaining(connection.sync()::del);
    } finally {
      client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
  }
}
