package io.taskq.benchmarks;

import java.util.Locale;
import javax.sql.DataSource;

/**
 * Figure (f): the benchmarks of the crash-reclaim event feed ({@link FeedBenchmark}), the
 * PostgreSQL sliding-window limiter ({@link PgRateLimitBenchmark}) and the Redis rate limiter
 * ({@link RateLimitBenchmark}), written beside their modules and run here so the one command prints
 * every figure. Each runs {@code runs} times; the medians are printed after.
 */
final class Extras {
  /** Decisions per algorithm per run, and the callers sharing the connector. */
  static final int DECISIONS = 50_000;

  static final int CALLERS = 8;

  private Extras() {}

  static void run(DataSource ds, Figures figures, int runs) throws Exception {
    System.out.printf(Locale.ROOT, "%n(f) crash-reclaim event feed (E1-E4):%n");
    for (int i = 1; i <= runs; i++) {
      FeedBenchmark.run(ds, figures);
    }
    figures.printMedians("feed.");
    System.out.printf(Locale.ROOT, "%n(f) PostgreSQL sliding-window rate limit (M4 fallback):%n");
    for (int i = 1; i <= runs; i++) {
      PgRateLimitBenchmark.run(figures);
    }
    figures.printMedians("postgres.");
    System.out.printf(
        Locale.ROOT, "%n(f) Redis rate limiter on %s:%n", RateLimitBenchmark.redisUrl());
    try {
      for (int i = 1; i <= runs; i++) {
        RateLimitBenchmark.measure(figures, RateLimitBenchmark.redisUrl(), DECISIONS, CALLERS);
      }
      figures.printMedians("redis.");
    } catch (RuntimeException e) {
      // No Redis is not a reason to lose the PostgreSQL figures printed so far.
      System.out.printf(Locale.ROOT, "  skipped: Redis not usable (%s)%n", e);
    }
  }
}
