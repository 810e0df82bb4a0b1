package io.taskq.benchmarks;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.taskq.SchemaName;
import io.taskq.TaskQ;
import io.taskq.limits.PostgresSlidingWindow;
import io.taskq.limits.SlidingWindowLog;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.Locale;

/**
 * The PostgreSQL sliding-window fallback's decisions per second (M4, D14): {@code threads} callers
 * ask for one permit of a random name among {@value LimiterLoad#NAMES}, each name 20 per second,
 * until {@code decisions} answers came back, over a pool of {@code threads} connections. Each
 * decision is one transaction (keyed advisory lock, read, write), so this is the rate a deployment
 * without Redis, or one whose Redis is down under the fall-back policy, can decide at.
 *
 * <p>Standalone: {@code java -cp ... io.taskq.benchmarks.PgRateLimitBenchmark [decisions]
 * [threads]} (reads {@code TASKQ_DATABASE_URL}, else the local PostgreSQL). From {@link Benchmark}:
 * {@code PgRateLimitBenchmark.run(figures)}. Works in schema {@value #SCHEMA}, dropped afterwards.
 */
public final class PgRateLimitBenchmark {
  static final String SCHEMA = "taskq_bench_rl";
  private static final int DEFAULT_DECISIONS = 20_000;
  private static final int DEFAULT_THREADS = 8;

  private PgRateLimitBenchmark() {}

  public static void main(String[] args) throws Exception {
    int decisions = args.length > 0 ? Integer.parseInt(args[0]) : DEFAULT_DECISIONS;
    int threads = args.length > 1 ? Integer.parseInt(args[1]) : DEFAULT_THREADS;
    measure(new Figures(), decisions, threads);
  }

  /** {@link #measure} with the default size: the one call the benchmark command makes. */
  static void run(Figures figures) throws Exception {
    measure(figures, DEFAULT_DECISIONS, DEFAULT_THREADS);
  }

  /**
   * Adds {@code postgres.sliding_window.decision_rate} (decisions/s) and {@code
   * postgres.sliding_window.admitted} (% admitted) to {@code figures}.
   */
  static void measure(Figures figures, int decisions, int threads) throws Exception {
    System.out.printf(
        Locale.ROOT,
        "PostgreSQL sliding-window fallback: %d decisions, %d threads%n",
        decisions,
        threads);
    SchemaName schema = SchemaName.of(SCHEMA);
    try (HikariDataSource pool = pool(threads)) {
      drop(pool, schema);
      Roots.migrate(pool, schema);
      try (TaskQ root = TaskQ.producer(pool).config(Roots.config(schema)).migrate(false).build()) {
        PostgresSlidingWindow limiter =
            root.slidingWindow(SlidingWindowLog.of(20, Duration.ofSeconds(1)), false);
        limiter.tryAcquire("warm-up");
        long started = System.nanoTime();
        long admitted = LimiterLoad.admitted(limiter, decisions, threads);
        double seconds = (System.nanoTime() - started) / 1e9;
        figures.add("postgres.sliding_window.decision_rate", "decisions/s", decisions / seconds);
        figures.add("postgres.sliding_window.admitted", "%", 100.0 * admitted / decisions);
      } finally {
        drop(pool, schema);
      }
    }
  }

  private static HikariDataSource pool(int size) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(System.getenv().getOrDefault("TASKQ_DATABASE_URL", BenchDatabase.LOCAL_URL));
    config.setMaximumPoolSize(size);
    config.setMinimumIdle(size);
    config.setPoolName("taskq-bench-rl");
    return new HikariDataSource(config);
  }

  private static void drop(HikariDataSource pool, SchemaName schema) throws Exception {
    try (Connection c = pool.getConnection();
        Statement s = c.createStatement()) {
      s.execute("DROP SCHEMA IF EXISTS " + schema.quoted() + " CASCADE");
    }
  }
}
