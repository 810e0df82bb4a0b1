package io.taskq.benchmarks;

import io.taskq.limits.RateLimiter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The load both rate-limit benchmarks put on a limiter: {@code threads} callers share {@code
 * decisions} one-permit calls, each for a random name among {@value #NAMES}.
 */
final class LimiterLoad {
  /** Distinct limit names the callers spread over. */
  static final int NAMES = 100;

  private LimiterLoad() {}

  /** Runs the load on {@code limiter}; returns how many decisions admitted. */
  static long admitted(RateLimiter limiter, int decisions, int threads) throws Exception {
    AtomicLong left = new AtomicLong(decisions);
    ExecutorService callers = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Long>> admitted = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        admitted.add(callers.submit(() -> caller(limiter, left)));
      }
      long total = 0;
      for (Future<Long> each : admitted) {
        total += each.get();
      }
      return total;
    } finally {
      callers.shutdownNow();
    }
  }

  private static long caller(RateLimiter limiter, AtomicLong left) {
    long admitted = 0;
    while (left.getAndDecrement() > 0) {
      if (limiter.tryAcquire("name-" + ThreadLocalRandom.current().nextInt(NAMES)).allowed()) {
        admitted++;
      }
    }
    return admitted;
  }
}
