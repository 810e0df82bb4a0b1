package io.taskq.benchmarks;

import com.zaxxer.hikari.HikariDataSource;
import io.taskq.JobsClient;
import io.taskq.SchemaName;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

/**
 * The scale mode (X1-X3, docs/benchmarks.md): what the table already holds must not slow the queue.
 * For each of five tables (nothing else; 100 000 and 1 000 000 pending jobs of a queue no worker
 * serves; 1 000 000 finished jobs not yet pruned; 1 000 000 jobs of the measured queue processed
 * through the claim index just before, not yet vacuumed) it measures, beside the raw {@code SKIP
 * LOCKED} baseline whose table holds the same rows, the claim throughput of {@code --jobs} no-op
 * jobs, WAL and write transactions per job, and the pickup latency; then the enqueue of {@code
 * --enqueue-jobs} (1 000 000) jobs beside the raw multi-row INSERT; then hands over to the main
 * benchmark's (d) heap soak of {@code --soak-jobs} (1 000 000) jobs and (e) reclaim drain of {@code
 * --backlog-rows} (50 000) expired leases. Where the database lets it ({@code pg_walinspect},
 * superuser), the WAL of the empty table's end-to-end run and of the baseline's claim is broken
 * down by relation.
 */
public final class ScaleBenchmark {
  /** The five tables, by their number in {@code --tables}: 1 000 000 rows at the defaults. */
  private static List<Clutter> tables(int rows) {
    return List.of(
        new Clutter("nothing else", 0, Kind.NONE),
        new Clutter(count(rows / 10) + " pending, other queue", rows / 10, Kind.OTHER_QUEUE),
        new Clutter(count(rows) + " pending, other queue", rows, Kind.OTHER_QUEUE),
        new Clutter(count(rows) + " finished, not pruned", rows, Kind.FINISHED),
        new Clutter(count(rows) + " processed, not yet vacuumed", rows, Kind.PROCESSED));
  }

  /** 1000000 as "1 000 000", as the figures in docs/benchmarks.md are written. */
  private static String count(int n) {
    return String.format(Locale.ROOT, "%,d", n).replace(',', ' ');
  }

  private final BenchDatabase db;

  /** The claim yardstick, beside the five tables. */
  private final RawSqlBaseline raw;

  /** The enqueue yardsticks' table as in the earlier figures (X3's yardsticks do not move). */
  private final RawSqlBaseline enqueueRaw;

  /** Each table's figures, by its number, one per run. */
  private final Map<Integer, List<Result>> results = new TreeMap<>();

  private final JobsClient client;
  private final int jobs;
  private final int threads;
  private final int pickupJobs;
  private final WalBreakdown wal;

  /** What is in the table besides the measured jobs. */
  private record Clutter(String label, int rows, Kind kind) {}

  /** Plans for the scan that kills the processed rows' entries: their claim index, in order. */
  private static final String ORDERED_INDEX_PLAN =
      "SET enable_seqscan = off; SET enable_bitmapscan = off; SET enable_sort = off; ";

  /** The planner's settings again after that scan, on the pooled connection it ran on. */
  private static final String DEFAULT_PLAN =
      "RESET enable_seqscan; RESET enable_bitmapscan; RESET enable_sort";

  /** What the clutter rows are. */
  private enum Kind {
    NONE,
    /** Pending jobs of a queue no worker serves. */
    OTHER_QUEUE,
    /** Finished jobs of the measured queue, written finished: never in the claim index. */
    FINISHED,
    /**
     * Finished jobs of the measured queue that were pending and left the claim index the way a
     * claim makes them leave it (an UPDATE of their status), with autovacuum off on both tables
     * until the table is measured: the claim indexes keep an entry for every such row, dead and
     * marked killed, until VACUUM removes it, and every claim's scan starts at the first of them.
     * This is a queue that has just processed {@code rows} jobs before autovacuum came by.
     */
    PROCESSED
  }

  /** One table's figures in one run. */
  private record Result(double rawRate, double rate, double pickupP50) {}

  private ScaleBenchmark(
      BenchDatabase db, int jobs, int threads, int pickupJobs, RawSqlBaseline.ClaimOrder rawOrder) {
    this.db = db;
    this.raw = new RawSqlBaseline(db.pool, db.schema.quoted(), rawOrder);
    this.enqueueRaw = new RawSqlBaseline(db.pool, db.schema.quoted());
    this.client = Roots.producer(db.pool, db.schema).jobs();
    this.jobs = jobs;
    this.threads = threads;
    this.pickupJobs = pickupJobs;
    this.wal = WalBreakdown.open(db.pool);
  }

  /**
   * Flags: {@code --jobs} (20 000), {@code --threads} (8), {@code --pickup-jobs} (200), {@code
   * --other-rows} (1 000 000: the rows of the large tables; the middle one holds a tenth), {@code
   * --tables} (12345: which of the five tables, by number), {@code --enqueue-jobs} (1 000 000),
   * {@code --soak-jobs} (1 000 000), {@code --backlog-rows} (50 000), {@code --drain-batches} (0:
   * S1's drain bound per tick raised to the whole backlog), {@code --runs} (1: the chosen tables
   * measured this many times in turn, then each table's medians), {@code --raw-order} ({@code
   * run_at}, or {@code id} for the claim yardstick of the figures before 2026-12-03), {@code
   * --warmup-runs} (3) and {@code --warmup-max-runs} (12): untimed runs of both sides at {@code
   * --jobs} before the first measured one, at least the one, at most the other, until both sides'
   * JIT compilers are quiet ({@link WarmUp}). A size of 0 skips its part.
   */
  public static void main(String[] commandLine) throws Exception {
    // Through Maven the flags come as one property (-Dscale.args="..." in the bench-scale profile).
    String fromMaven = System.getProperty("taskq.scale.args", "").trim();
    String[] args =
        commandLine.length == 0 && !fromMaven.isEmpty() ? fromMaven.split("\\s+") : commandLine;
    int jobs = Benchmark.intArg(args, "--jobs", 20_000);
    int otherRows = Benchmark.intArg(args, "--other-rows", 1_000_000);
    String tables = stringArg(args, "--tables", "12345");
    if (!tables.matches("[1-5]+")) {
      throw new IllegalArgumentException(
          "--tables takes the numbers of the tables, 1 to 5 (e.g. 13), was " + tables);
    }
    RawSqlBaseline.ClaimOrder rawOrder =
        RawSqlBaseline.ClaimOrder.of(stringArg(args, "--raw-order", "run_at"));
    int runs = Benchmark.intArg(args, "--runs", 1);
    if (runs < 1) {
      throw new IllegalArgumentException("--runs must be at least 1, was " + runs);
    }
    int threads = Benchmark.intArg(args, "--threads", 8);
    int pickup = Benchmark.intArg(args, "--pickup-jobs", 200);
    int enqueue = Benchmark.intArg(args, "--enqueue-jobs", 1_000_000);
    int soak = Benchmark.intArg(args, "--soak-jobs", 1_000_000);
    int backlog = Benchmark.intArg(args, "--backlog-rows", 50_000);
    int drainBatches = Benchmark.intArg(args, "--drain-batches", 0);
    int warmUpRuns = Benchmark.intArg(args, "--warmup-runs", 3);
    int warmUpMaxRuns = Benchmark.intArg(args, "--warmup-max-runs", 12);
    WarmUp.check(warmUpRuns, warmUpMaxRuns);
    System.out.printf(
        Locale.ROOT,
        "TaskQ scale benchmark: %d jobs per table, %d threads, %d cores, raw claim by %s%n",
        jobs,
        threads,
        Runtime.getRuntime().availableProcessors(),
        rawOrder.name().toLowerCase(Locale.ROOT));
    try (BenchDatabase db = BenchDatabase.open(SchemaName.of(Benchmark.SCHEMA), threads + 8)) {
      ScaleBenchmark bench = new ScaleBenchmark(db, jobs, threads, pickup, rawOrder);
      bench.warmUp(warmUpRuns, warmUpMaxRuns);
      List<Clutter> all = tables(otherRows);
      for (int run = 1; run <= runs; run++) {
        if (runs > 1) {
          System.out.printf(Locale.ROOT, "%n== run %d of %d%n", run, runs);
        }
        bench.measureRun(all, tables);
      }
      if (runs > 1) {
        bench.printMedians(all);
      }
      if (enqueue > 0) {
        bench.enqueue(enqueue);
      }
    }
    String figures = (soak > 0 ? "d" : "") + (backlog > 0 ? "e" : "");
    if (!figures.isEmpty()) {
      Benchmark.main(
          new String[] {
            "--figures",
            figures,
            "--soak-jobs",
            "" + Math.max(soak, 1),
            "--backlog-rows",
            "" + Math.max(backlog, 1),
            "--drain-batches",
            "" + drainBatches,
            "--runs",
            "1"
          });
    }
  }

  private static String stringArg(String[] args, String name, String fallback) {
    for (int i = 0; i + 1 < args.length; i++) {
      if (args[i].equals(name)) {
        return args[i + 1];
      }
    }
    return fallback;
  }

  /** Each chosen table once, in order. */
  private void measureRun(List<Clutter> all, String tables) throws Exception {
    for (int i = 0; i < all.size(); i++) {
      if (tables.indexOf((char) ('1' + i)) >= 0) {
        results.computeIfAbsent(i + 1, k -> new ArrayList<>()).add(measure(all.get(i)));
      }
    }
  }

  /** Each table's medians over the runs, its rate and pickup p50 also against the empty table's. */
  private void printMedians(List<Clutter> all) {
    System.out.printf(Locale.ROOT, "%nMedians over the runs:%n");
    List<Result> empty = results.get(1);
    for (Map.Entry<Integer, List<Result>> entry : results.entrySet()) {
      List<Result> runs = entry.getValue();
      double rate = median(runs, Result::rate);
      double p50 = median(runs, Result::pickupP50);
      System.out.printf(
          Locale.ROOT,
          "  [%s] raw claim %.0f jobs/s, TaskQ %.0f jobs/s (%.2fx raw), pickup p50 %.2f ms%s%n",
          all.get(entry.getKey() - 1).label(),
          median(runs, Result::rawRate),
          rate,
          median(runs, r -> r.rate() / r.rawRate()),
          p50,
          empty == null
              ? ""
              : String.format(
                  Locale.ROOT,
                  "; %.2fx the empty table's rate, p50 %.2fx its p50",
                  rate / median(empty, Result::rate),
                  p50 / median(empty, Result::pickupP50)));
    }
  }

  private static double median(List<Result> runs, ToDoubleFunction<Result> figure) {
    double[] values = runs.stream().mapToDouble(figure).sorted().toArray();
    int mid = values.length / 2;
    return values.length % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
  }

  /**
   * Untimed runs of both sides at the measured size, as {@link WarmUp} rules, then an untimed
   * enqueue comparison.
   */
  private void warmUp(int leastRuns, int mostRuns) throws Exception {
    WarmUp.run(
        leastRuns,
        mostRuns,
        () -> {
          db.emptyJobs();
          raw.reset();
          enqueueBoth(jobs);
          raw.claimAll(threads, jobs);
          return new double[] {
            raw.lastCpu().jitMicrosPerJob(), endToEnd(jobs, 0).cpu().jitMicrosPerJob()
          };
        });
    enqueueRaw.reset();
    EnqueueComparison.run(enqueueRaw, client, 10_000);
  }

  private Result measure(Clutter table) throws Exception {
    db.emptyJobs();
    raw.reset();
    clutter(table);
    long idFloor = db.queryLong("SELECT COALESCE(max(id), 0) FROM " + db.table("jobs"));
    enqueueBoth(jobs);
    ServerCounters before = db.counters();
    String rawWal = wal.start();
    long rawNanos = raw.claimAll(threads, jobs);
    String rawCpu = raw.lastCpu().line();
    ServerCounters.Cost rawCost = db.counters().since(before, jobs);
    String rawBreakdown = wal.since(rawWal, jobs);
    before = db.counters();
    String taskqWal = wal.start();
    WorkerRun.Timed taskq = endToEnd(jobs, idFloor);
    long taskqNanos = taskq.nanos();
    String taskqCpu = taskq.cpu().line();
    ServerCounters.Cost cost = db.counters().since(before, jobs);
    String breakdown = wal.since(taskqWal, jobs);
    PickupRun.Latency latency = pickup(idFloor);
    if (table.kind() == Kind.PROCESSED) {
      db.execute("ALTER TABLE " + db.table("jobs") + " RESET (autovacuum_enabled)");
    }
    double rawRate = jobs / seconds(rawNanos);
    double rate = jobs / seconds(taskqNanos);
    System.out.printf(
        Locale.ROOT,
        "%n[%s]%n  raw claim %.0f jobs/s, %.3f write xacts/job, %.0f WAL B/job%n"
            + "    %s%n"
            + "  TaskQ end-to-end %.0f jobs/s (%.2fx raw), %.3f write xacts/job, %.0f WAL B/job%n"
            + "    %s%n"
            + "  TaskQ pickup p50 %.2f ms, p99 %.2f ms, max %.2f ms (%d jobs, 10 ms apart)%n",
        table.label(),
        rawRate,
        rawCost.writeTransactionsPerJob(),
        rawCost.walBytesPerJob(),
        rawCpu,
        rate,
        rate / rawRate,
        cost.writeTransactionsPerJob(),
        cost.walBytesPerJob(),
        taskqCpu,
        latency.p50(),
        latency.p99(),
        latency.max(),
        pickupJobs);
    if (table.rows() == 0) {
      System.out.print("  WAL by relation, raw claim (bytes per job):\n" + rawBreakdown);
      System.out.print("  WAL by relation, TaskQ end-to-end (bytes per job):\n" + breakdown);
    }
    return new Result(rawRate, rate, latency.p50());
  }

  /** The same rows in both tables: other-queue pending jobs, or finished jobs of the queue. */
  private void clutter(Clutter table) throws SQLException {
    if (table.rows() == 0) {
      return;
    }
    String series = " FROM generate_series(1, " + table.rows() + ") AS n";
    if (table.kind() == Kind.PROCESSED) {
      processed(series); // no VACUUM: its dead entries are what this table is about
      return;
    }
    if (table.kind() == Kind.FINISHED) {
      db.execute(
          "INSERT INTO "
              + db.table("jobs")
              + " (actor, queue, status, payload, run_at, max_attempts, retry_backoff,"
              + " retry_base_ms, retry_cap_ms, retry_jitter, attempt, started_at, finished_at)"
              + " SELECT '"
              + EnqueueRun.ACTOR
              + "', 'default', 'succeeded', '{}', now(), 3, 'constant', 1, 1, 0, 1, now(), now()"
              + series);
      db.execute("INSERT INTO " + raw.table() + " (status, payload) SELECT 'done', '{}'" + series);
    } else {
      db.execute(
          "INSERT INTO "
              + db.table("jobs")
              + " (actor, queue, status, payload, run_at, max_attempts, retry_backoff,"
              + " retry_base_ms, retry_cap_ms, retry_jitter)"
              + " SELECT 'elsewhere', 'elsewhere', 'pending', '{}', now() - interval '1 hour', 3,"
              + " 'constant', 1, 1, 0"
              + series);
      db.execute(
          "INSERT INTO "
              + raw.table()
              + " (status, payload, queue) SELECT 'pending', '{}', 'elsewhere'"
              + series);
    }
    db.execute("VACUUM ANALYZE " + db.table("jobs"));
    db.execute("VACUUM ANALYZE " + raw.table());
  }

  /**
   * {@link Kind#PROCESSED}: the series's pending jobs of the measured queue in each table, due an
   * hour ago (before every measured job), vacuumed; then, with autovacuum off on both tables, all
   * of them finished by one UPDATE of their status (each leaves its claim index's entry dead, as a
   * claim does), and one scan in claim order over the index that kills those entries, as the claims
   * of a live queue kill them one batch after another. Autovacuum is put back after the table is
   * measured ({@link #measure}).
   */
  private void processed(String series) throws SQLException {
    String jobsTable = db.table("jobs");
    db.execute("ALTER TABLE " + jobsTable + " SET (autovacuum_enabled = false)");
    db.execute("ALTER TABLE " + raw.table() + " SET (autovacuum_enabled = false)");
    db.execute(
        "INSERT INTO "
            + jobsTable
            + " (actor, queue, status, payload, run_at, max_attempts, retry_backoff,"
            + " retry_base_ms, retry_cap_ms, retry_jitter)"
            + " SELECT '"
            + EnqueueRun.ACTOR
            + "', 'default', 'pending', '{}', now() - interval '1 hour' + n * interval '1"
            + " microsecond', 3, 'constant', 1, 1, 0"
            + series);
    db.execute(
        "INSERT INTO "
            + raw.table()
            + " (status, payload, run_at) SELECT 'pending', '{}', now() - interval '1 hour' + n *"
            + " interval '1 microsecond'"
            + series);
    db.execute("VACUUM ANALYZE " + jobsTable);
    db.execute("VACUUM ANALYZE " + raw.table());
    db.execute(
        "UPDATE "
            + jobsTable
            + " SET status = 'succeeded', attempt = 1, started_at = now(), finished_at = now()"
            + " WHERE status = 'pending'");
    db.execute("UPDATE " + raw.table() + " SET status = 'done' WHERE status = 'pending'");
    db.execute(
        ORDERED_INDEX_PLAN
            + "SELECT count(*) FROM (SELECT id FROM "
            + jobsTable
            + " WHERE status = 'pending' AND queue = 'default' AND actor = '"
            + EnqueueRun.ACTOR
            + "' ORDER BY priority, run_at, id) AS killed; "
            + DEFAULT_PLAN);
    db.execute(
        ORDERED_INDEX_PLAN
            + "SELECT count(*) FROM (SELECT id FROM "
            + raw.table()
            + " WHERE status = 'pending' AND queue = 'bench' ORDER BY "
            + raw.orderColumns()
            + ") AS killed; "
            + DEFAULT_PLAN);
    // Statistics that see the rows finished, as autovacuum's ANALYZE would have them; no VACUUM.
    db.execute("ANALYZE " + jobsTable);
    db.execute("ANALYZE " + raw.table());
  }

  /** {@code n} jobs into each table, 1000 per call or statement, interleaved. */
  private long[] enqueueBoth(int n) throws SQLException {
    EnqueueRun enqueue = new EnqueueRun(client);
    long rawNanos = 0;
    long taskqNanos = 0;
    for (int first = 1, batch = 0; first <= n; first += EnqueueRun.PER_CALL, batch++) {
      if (batch % 2 == 0) {
        rawNanos += raw.insertBatch(first);
        taskqNanos += enqueue.enqueueBatch(first, EnqueueRun.PER_CALL);
      } else {
        taskqNanos += enqueue.enqueueBatch(first, EnqueueRun.PER_CALL);
        rawNanos += raw.insertBatch(first);
      }
    }
    db.execute("ANALYZE " + db.table("jobs"));
    db.execute("ANALYZE " + raw.table());
    return new long[] {rawNanos, taskqNanos};
  }

  /**
   * {@code n} jobs, from the resume of a settled worker ({@link WorkerRun#runSettled}) until all
   * succeeded, counting only the jobs above {@code idFloor}, timed on the database's clock ({@link
   * WorkerRun#timedNanos()}). Building and starting the worker are outside the timed interval, as
   * opening the raw claim's connections and preparing its statements are outside the raw claim's.
   */
  private WorkerRun.Timed endToEnd(int n, long idFloor) throws Exception {
    try (WorkerRun worker = new WorkerRun(db, threads, WorkerRun.DEFAULT_POLL_INTERVAL)) {
      return worker.runSettled(idFloor, n);
    }
  }

  /** (c) with the table's rows still in place: the measured jobs' own rows go first. */
  private PickupRun.Latency pickup(long idFloor) throws Exception {
    db.execute(
        "DELETE FROM "
            + db.table("jobs")
            + " WHERE status = 'succeeded' AND payload <> '{}'::jsonb");
    db.execute("TRUNCATE " + db.table("job_attempts"));
    try (HikariDataSource other = db.otherPool(2);
        WorkerRun worker = new WorkerRun(db, threads, PickupRun.POLL_INTERVAL)) {
      worker.startAbove(idFloor);
      return new PickupRun(db).measure(worker, other, pickupJobs, Duration.ofMillis(10));
    }
  }

  private void enqueue(int n) throws Exception {
    db.emptyJobs();
    enqueueRaw.reset();
    System.out.printf(Locale.ROOT, "%n[enqueue of %d jobs]%n", n);
    EnqueueComparison.run(enqueueRaw, client, n).print(n);
    db.emptyJobs();
    enqueueRaw.reset();
  }

  private static double seconds(long nanos) {
    return nanos / 1e9;
  }

  /**
   * The WAL between two positions, by relation, from {@code pg_walinspect}; each record is counted
   * under the relation of its first block (a commit record, which has none, under its resource
   * manager). Without the extension (it needs a superuser to create) it says so.
   */
  private record WalBreakdown(HikariDataSource pool, boolean available) {
    static WalBreakdown open(HikariDataSource pool) {
      try (Connection c = pool.getConnection();
          PreparedStatement ps =
              c.prepareStatement("CREATE EXTENSION IF NOT EXISTS pg_walinspect")) {
        ps.execute();
        return new WalBreakdown(pool, true);
      } catch (SQLException e) {
        return new WalBreakdown(pool, false);
      }
    }

    String start() throws SQLException {
      try (Connection c = pool.getConnection();
          PreparedStatement ps = c.prepareStatement("SELECT pg_current_wal_insert_lsn()::text");
          ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getString(1);
      }
    }

    String since(String from, int jobs) throws SQLException {
      if (!available) {
        return "    (no pg_walinspect: run against a database where a superuser can create it)\n";
      }
      String sql =
          "SELECT COALESCE(pg_filenode_relation(0, substring(block_ref FROM"
              + " 'rel \\d+/\\d+/(\\d+)')::oid)::text, resource_manager) AS rel,"
              + " sum(record_length)::float8 / ? AS bytes, count(*)::float8 / ? AS records,"
              + " sum(fpi_length)::float8 / ? AS fpi"
              + " FROM pg_get_wal_records_info(?::pg_lsn, pg_current_wal_flush_lsn())"
              + " GROUP BY 1 ORDER BY 2 DESC";
      StringBuilder out = new StringBuilder();
      double bytes = 0;
      double records = 0;
      double fpi = 0;
      try (Connection c = pool.getConnection();
          PreparedStatement ps = c.prepareStatement(sql)) {
        ps.setInt(1, jobs);
        ps.setInt(2, jobs);
        ps.setInt(3, jobs);
        ps.setString(4, from);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            out.append(
                String.format(
                    Locale.ROOT,
                    "    %-40s %7.1f B %6.2f records (full-page images %.1f B)%n",
                    rs.getString(1),
                    rs.getDouble(2),
                    rs.getDouble(3),
                    rs.getDouble(4)));
            bytes += rs.getDouble(2);
            records += rs.getDouble(3);
            fpi += rs.getDouble(4);
          }
        }
      }
      out.append(
          String.format(
              Locale.ROOT,
              "    %-40s %7.1f B %6.2f records (full-page images %.1f B)%n",
              "total",
              bytes,
              records,
              fpi));
      return out.toString();
    }
  }
}
