package io.taskq.benchmarks;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Locale;

/**
 * One command, one run of every figure: the raw-SQL baseline and TaskQ on the same database.
 *
 * <p>Reads {@code TASKQ_DATABASE_URL} (else the local PostgreSQL), works in its own schema {@code
 * taskq_bench}, repeats each measurement {@code runs} times and prints medians, the TaskQ /
 * baseline ratios, the database's cost per job and the peak heap. See docs/benchmarks.md.
 */
public final class Benchmark {
  static final String SCHEMA = "taskq_bench";

  private Benchmark() {}

  public static void main(String[] args) throws Exception {
    int runs = intArg(args, "--runs", 3);
    int jobs = intArg(args, "--jobs", 20_000);
    int threads = intArg(args, "--threads", 8);
    String url = System.getenv().getOrDefault("TASKQ_DATABASE_URL", LOCAL_URL);
    System.out.printf(
        Locale.ROOT, "TaskQ benchmark: %d runs, %d jobs, %d threads%n", runs, jobs, threads);
    try (HikariDataSource ds = pool(url, threads + 4)) {
      recreateSchema(ds);
      Figures figures = new Figures();
      RawSqlBaseline raw = new RawSqlBaseline(ds, '"' + SCHEMA + '"');
      for (int run = 1; run <= runs; run++) {
        System.out.printf(Locale.ROOT, "Run %d:%n", run);
        raw.reset();
        long insertNanos = raw.insert(jobs);
        figures.add("baseline.insert_rate", "rows/s", jobs / seconds(insertNanos));
        ServerCounters before = counters(ds);
        long claimNanos = raw.claimAll(threads, jobs);
        ServerCounters.Cost cost = counters(ds).since(before, jobs);
        figures.add("baseline.claim_rate", "jobs/s", jobs / seconds(claimNanos));
        figures.add("baseline.write_xacts_per_job", "xacts", cost.writeTransactionsPerJob());
        figures.add("baseline.wal_bytes_per_job", "bytes", cost.walBytesPerJob());
      }
      figures.printMedians();
      System.out.printf(Locale.ROOT, "Peak heap: %.1f MiB%n", peakHeapBytes() / 1048576.0);
    }
  }

  static final String LOCAL_URL = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";

  static HikariDataSource pool(String url, int size) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setMaximumPoolSize(size);
    config.setPoolName("taskq-bench");
    return new HikariDataSource(config);
  }

  private static void recreateSchema(HikariDataSource ds) throws Exception {
    try (Connection c = ds.getConnection();
        Statement s = c.createStatement()) {
      s.execute("DROP SCHEMA IF EXISTS \"" + SCHEMA + "\" CASCADE");
      s.execute("CREATE SCHEMA \"" + SCHEMA + "\"");
    }
  }

  static ServerCounters counters(HikariDataSource ds) throws Exception {
    try (Connection c = ds.getConnection()) {
      return ServerCounters.read(c);
    }
  }

  static double seconds(long nanos) {
    return nanos / 1e9;
  }

  static long peakHeapBytes() {
    long peak = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        peak += pool.getPeakUsage().getUsed();
      }
    }
    return peak;
  }

  private static int intArg(String[] args, String name, int fallback) {
    for (int i = 0; i + 1 < args.length; i++) {
      if (args[i].equals(name)) {
        try {
          return Integer.parseInt(args[i + 1]);
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(
              name + " must be a whole number, was " + args[i + 1], e);
        }
      }
    }
    return fallback;
  }
}
