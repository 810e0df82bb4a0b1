package io.taskq.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.limits.Decision;
import io.taskq.limits.Gcra;
import io.taskq.limits.RateLimit;
import io.taskq.limits.SlidingWindowLog;
import io.taskq.limits.TokenBucket;
import io.taskq.limits.UnavailablePolicy;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Many callers in two "processes" (two Lettuce clients, each its own connection and threads) racing
 * for one limit get exactly its budget between them: never one permit more, never one less.
 */
@TaskQTest
@Tag("M5")
class RateLimiterConcurrencyTest {
  private static final int BUDGET = 40;
  private static final int THREADS = 16;
  private static final int ATTEMPTS_PER_THREAD = 8;
  private static final UnavailablePolicy FAIL = UnavailablePolicy.failClosed(Duration.ofSeconds(1));

  private static RedisConnector processA;
  private static RedisConnector processB;

  @BeforeAll
  static void connect(TestServices services) {
    processA = RawRedis.connector(services);
    processB = RawRedis.connector(services);
  }

  @AfterAll
  static void close() {
    processA.close();
    processB.close();
  }

  /** Budgets that cannot refill during the test, so the admitted count is exact. */
  static Stream<RateLimit> budgetsOfForty() {
    return Stream.of(
        TokenBucket.of(BUDGET, 1, Duration.ofHours(1)),
        SlidingWindowLog.of(BUDGET, Duration.ofHours(1)),
        Gcra.of(1, Duration.ofHours(1), BUDGET));
  }

  @ParameterizedTest
  @MethodSource("budgetsOfForty")
  void concurrentCallersInTwoProcesses_areAdmittedExactlyTheBudget(RateLimit limit)
      throws Exception {
    List<RedisRateLimiter> limiters =
        List.of(
            RedisRateLimiter.create(processA, limit, FAIL),
            RedisRateLimiter.create(processB, limit, FAIL));
    String name = "race-" + limit.algorithm();
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService threads = Executors.newFixedThreadPool(THREADS);
    List<Future<List<Decision>>> results = new ArrayList<>();
    try {
      for (int t = 0; t < THREADS; t++) {
        RedisRateLimiter limiter = limiters.get(t % 2);
        results.add(threads.submit(() -> attempts(limiter, name, start)));
      }
      start.countDown();
      List<Decision> all = new ArrayList<>();
      for (Future<List<Decision>> result : results) {
        all.addAll(result.get(60, TimeUnit.SECONDS));
      }

      assertThat(all).hasSize(THREADS * ATTEMPTS_PER_THREAD).noneMatch(Decision::degraded);
      assertThat(all.stream().filter(Decision::allowed).count()).isEqualTo(BUDGET);
      assertThat(all.stream().filter(Decision::allowed).map(Decision::remaining))
          .as("each admission saw a distinct remaining count")
          .doesNotHaveDuplicates()
          .allMatch(r -> r >= 0 && r < BUDGET);
      assertThat(all.stream().filter(d -> !d.allowed()))
          .allMatch(d -> d.retryAfter().compareTo(Duration.ZERO) > 0 && d.remaining() == 0);
    } finally {
      threads.shutdownNow();
    }
  }

  private static List<Decision> attempts(
      RedisRateLimiter limiter, String name, CountDownLatch start) throws InterruptedException {
    start.await();
    List<Decision> decisions = new ArrayList<>();
    for (int i = 0; i < ATTEMPTS_PER_THREAD; i++) {
      decisions.add(limiter.tryAcquire(name));
    }
    return decisions;
  }
}
