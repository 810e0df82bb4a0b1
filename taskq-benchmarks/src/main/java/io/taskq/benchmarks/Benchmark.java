package io.taskq.benchmarks;

import com.zaxxer.hikari.HikariDataSource;
import io.taskq.JobsClient;
import io.taskq.SchemaName;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * One command, one run of every figure: TaskQ and a raw-SQL baseline on the same database, in the
 * same process, alternating within each run so both see the same machine load.
 *
 * <p>Reads {@code TASKQ_DATABASE_URL} (else the local PostgreSQL) and works in its own schema
 * {@value #SCHEMA}, dropped and migrated at start. Figures (a) to (c) and the baseline repeat
 * {@code --runs} times (default 3) and print medians and the TaskQ / baseline ratios; (d) and (e)
 * run once each, as they are long; then the peak heap. See docs/benchmarks.md for what each figure
 * means and the targets.
 */
public final class Benchmark {
  static final String SCHEMA = "taskq_bench";
  private static final int WARM_UP_BATCHES = 300;

  private final Settings settings;
  private final BenchDatabase db;
  private final Figures figures = new Figures();

  private Benchmark(Settings settings, BenchDatabase db) {
    this.settings = settings;
    this.db = db;
  }

  /** The knobs of a run; the defaults are the documented benchmark. */
  record Settings(
      String figures,
      int runs,
      int jobs,
      int enqueueJobs,
      int threads,
      int pickupJobs,
      int soakJobs,
      int backlogRows,
      int drainBatches,
      int warmUpRuns,
      int warmUpMaxRuns,
      RawSqlBaseline.ClaimOrder rawOrder) {
    private static final Set<String> FLAGS =
        Set.of(
            "--figures",
            "--runs",
            "--jobs",
            "--enqueue-jobs",
            "--threads",
            "--pickup-jobs",
            "--soak-jobs",
            "--backlog-rows",
            "--drain-batches",
            "--warmup-runs",
            "--warmup-max-runs",
            "--raw-order");

    static Settings of(String[] args) {
      for (int i = 0; i < args.length; i += 2) {
        if (!FLAGS.contains(args[i]) || i + 1 == args.length) {
          throw new IllegalArgumentException(
              (FLAGS.contains(args[i]) ? args[i] + " needs a value" : "unknown flag " + args[i])
                  + "; the flags are "
                  + new TreeSet<>(FLAGS)
                  + ", each followed by its value");
        }
      }
      String figures = stringArg(args, "--figures", "abcdef");
      if (!figures.matches("[a-f]+")) {
        throw new IllegalArgumentException(
            "--figures must be letters of a to f (e.g. abc), was " + figures);
      }
      int jobs = batchesOf("--jobs", intArg(args, "--jobs", 20_000));
      int warmUpRuns = intArg(args, "--warmup-runs", 3);
      int warmUpMaxRuns = intArg(args, "--warmup-max-runs", 12);
      WarmUp.check(warmUpRuns, warmUpMaxRuns);
      return new Settings(
          figures,
          positive("--runs", intArg(args, "--runs", 3)),
          jobs,
          batchesOf("--enqueue-jobs", intArg(args, "--enqueue-jobs", 100_000)),
          positive("--threads", intArg(args, "--threads", 8)),
          positive("--pickup-jobs", intArg(args, "--pickup-jobs", 500)),
          positive("--soak-jobs", intArg(args, "--soak-jobs", 100_000)),
          positive("--backlog-rows", intArg(args, "--backlog-rows", 50_000)),
          atLeastZero("--drain-batches", intArg(args, "--drain-batches", 0)),
          warmUpRuns,
          warmUpMaxRuns,
          RawSqlBaseline.ClaimOrder.of(stringArg(args, "--raw-order", "run_at")));
    }

    private static int atLeastZero(String name, int value) {
      if (value < 0 || value > ReclaimBacklogRun.MAX_DRAIN_BATCHES) {
        throw new IllegalArgumentException(
            name
                + " must be 0 (enough for the whole backlog) to "
                + ReclaimBacklogRun.MAX_DRAIN_BATCHES
                + ", was "
                + value);
      }
      return value;
    }

    private static int positive(String name, int value) {
      if (value < 1) {
        throw new IllegalArgumentException(name + " must be at least 1, was " + value);
      }
      return value;
    }

    /** {@code value}, checked to be whole batches of {@value EnqueueRun#PER_CALL}. */
    private static int batchesOf(String name, int value) {
      if (value < EnqueueRun.PER_CALL || value % EnqueueRun.PER_CALL != 0) {
        throw new IllegalArgumentException(
            name + " must be a positive multiple of " + EnqueueRun.PER_CALL + ", was " + value);
      }
      return value;
    }

    boolean has(char figure) {
      return figures.indexOf(figure) >= 0;
    }
  }

  public static void main(String[] args) throws Exception {
    Settings settings = Settings.of(args);
    System.out.printf(
        Locale.ROOT,
        "TaskQ benchmark: %d runs (%d to %d warm-up runs), %d jobs, %d threads, heap limit %.0f MiB,"
            + " %d cores, raw claim by %s%n",
        settings.runs(),
        settings.warmUpRuns(),
        settings.warmUpMaxRuns(),
        settings.jobs(),
        settings.threads(),
        mib(HeapSampler.maxHeapBytes()),
        Runtime.getRuntime().availableProcessors(),
        settings.rawOrder().name().toLowerCase(Locale.ROOT));
    try (BenchDatabase db = BenchDatabase.open(SchemaName.of(SCHEMA), settings.threads() + 8)) {
      new Benchmark(settings, db).run();
    }
  }

  private void run() throws Exception {
    // (a)'s yardsticks keep the raw table of the earlier figures, (queue, id), so X3's ratio does
    // not move; (b)'s claim yardstick orders by due time on its own index (--raw-order).
    RawSqlBaseline enqueueRaw = new RawSqlBaseline(db.pool, db.schema.quoted());
    RawSqlBaseline claimRaw = new RawSqlBaseline(db.pool, db.schema.quoted(), settings.rawOrder());
    JobsClient client = Roots.producer(db.pool, db.schema).jobs();
    if (settings.has('a') || settings.has('b') || settings.has('c')) {
      // (a)'s runs first, then (b)'s warm-up and runs: run between (b)'s runs, (a)'s 100 000 jobs
      // on four enqueue paths sent the JIT compiler back into the worker's code (made not
      // entrant, compiled again), 26 to 41 µs of CPU per job inside every timed interval of (b).
      warmUpEnqueue(enqueueRaw, client);
      for (int run = 1; run <= settings.runs(); run++) {
        System.out.printf(Locale.ROOT, "(a) run %d of %d:%n", run, settings.runs());
        insertBoth(enqueueRaw, client, settings.enqueueJobs(), true);
      }
      warmUpClaims(claimRaw, client);
      try (HikariDataSource other = db.otherPool(2)) {
        for (int run = 1; run <= settings.runs(); run++) {
          System.out.printf(Locale.ROOT, "(b) and (c) run %d of %d:%n", run, settings.runs());
          insertBoth(claimRaw, client, settings.jobs(), false);
          claimBaseline(claimRaw);
          endToEnd(settings.jobs(), true);
          if (settings.has('c')) {
            pickup(other);
          }
        }
      }
      figures.printMedians("");
      printRatios();
    }
    if (settings.has('d')) {
      soak(client);
    }
    if (settings.has('e')) {
      backlog();
    }
    if (settings.has('f')) {
      Extras.run(db.pool, figures, settings.runs());
    }
    System.out.printf(Locale.ROOT, "%nPeak heap: %.1f MiB%n", mib(HeapSampler.peakHeapBytes()));
    List<String> missed = figures.missed();
    System.out.println(missed.isEmpty() ? "Every target met." : "Targets missed: " + missed);
  }

  /**
   * Untimed before (a)'s first run: {@value #WARM_UP_BATCHES} batches of each enqueue path, enough
   * for the JIT to compile both (a shorter warm-up timed TaskQ's longer client path partly
   * interpreted).
   */
  private void warmUpEnqueue(RawSqlBaseline enqueueRaw, JobsClient client) throws Exception {
    enqueueRaw.reset();
    db.emptyJobs();
    EnqueueComparison.run(enqueueRaw, client, WARM_UP_BATCHES * EnqueueRun.PER_CALL);
  }

  /**
   * Untimed before (b)'s first run: runs of (b) and its yardstick at the measured size, as {@link
   * WarmUp} rules (docs/benchmarks.md, "Scale mode").
   */
  private void warmUpClaims(RawSqlBaseline claimRaw, JobsClient client) throws Exception {
    WarmUp.run(
        settings.warmUpRuns(),
        settings.warmUpMaxRuns(),
        () -> {
          insertBoth(claimRaw, client, settings.jobs(), false);
          claimRaw.claimAll(settings.threads(), settings.jobs());
          return new double[] {
            claimRaw.lastCpu().jitMicrosPerJob(), endToEnd(settings.jobs(), false)
          };
        });
  }

  /**
   * (a) and the baseline's INSERT, interleaved batch by batch (alternating which goes first) so
   * both see the same machine load: {@code JobsClient.enqueueAll} of 1000 jobs beside one 1000-row
   * INSERT. When recorded, with the other enqueue yardsticks and a full chunk beside them ({@link
   * EnqueueComparison}).
   */
  private void insertBoth(RawSqlBaseline raw, JobsClient client, int jobs, boolean record)
      throws Exception {
    raw.reset();
    db.emptyJobs();
    if (record) {
      EnqueueComparison.Rates rates = EnqueueComparison.run(raw, client, jobs);
      db.analyze("jobs", "raw_jobs");
      figures.add("baseline.insert_rate", "rows/s", rates.rawInsert());
      figures.add("baseline.copy_rate", "rows/s", rates.rawCopy());
      figures.add("baseline.insert_jobs_table_rate", "rows/s", rates.rawInsertJobsTable());
      figures.add("a.taskq.enqueue_rate", "jobs/s", rates.taskq());
      figures.add("a.taskq.enqueue_copy_rate", "jobs/s", rates.taskqCopy());
      return;
    }
    EnqueueRun enqueue = new EnqueueRun(client);
    for (int first = 1, batch = 0; first <= jobs; first += EnqueueRun.PER_CALL, batch++) {
      if (batch % 2 == 0) {
        raw.insertBatch(first);
        enqueue.enqueueBatch(first, EnqueueRun.PER_CALL);
      } else {
        enqueue.enqueueBatch(first, EnqueueRun.PER_CALL);
        raw.insertBatch(first);
      }
    }
    db.analyze("jobs", "raw_jobs");
  }

  /** The raw-SQL claim yardstick: 8 threads claiming 10 at a time, acknowledging in one UPDATE. */
  private void claimBaseline(RawSqlBaseline raw) throws Exception {
    int jobs = settings.jobs();
    ServerCounters before = db.counters();
    long claimNanos = raw.claimAll(settings.threads(), jobs);
    String perJob = raw.lastCpu().line();
    ServerCounters.Cost cost = db.counters().since(before, jobs);
    System.out.println("  raw claim " + perJob);
    figures.add("baseline.claim_rate", "jobs/s", jobs / seconds(claimNanos));
    figures.add("baseline.write_xacts_per_job", "xacts", cost.writeTransactionsPerJob());
    figures.add("baseline.wal_bytes_per_job", "bytes", cost.walBytesPerJob());
  }

  /**
   * (b) The jobs (a) enqueued, run by one worker with 8 handler threads, from the resume of its
   * settled start ({@link WorkerRun#runSettled}) to done; returns the JIT compiler's CPU per job
   * inside that interval.
   */
  private double endToEnd(int jobs, boolean record) throws Exception {
    ServerCounters before = db.counters();
    WorkerRun.Timed run;
    try (WorkerRun worker =
        new WorkerRun(db, settings.threads(), WorkerRun.DEFAULT_POLL_INTERVAL)) {
      run = worker.runSettled(-1, jobs);
    }
    ServerCounters.Cost cost = db.counters().since(before, jobs);
    if (record) {
      System.out.println("  TaskQ end-to-end " + run.cpu().line());
      figures.add("b.taskq.end_to_end_rate", "jobs/s", jobs / seconds(run.nanos()));
      figures.add("b.taskq.write_xacts_per_job", "xacts", cost.writeTransactionsPerJob());
      figures.add("b.taskq.wal_bytes_per_job", "bytes", cost.walBytesPerJob());
    }
    return run.cpu().jitMicrosPerJob();
  }

  /** (c) Single jobs from another pool every 10 ms; the worker polls only every 30 s. */
  private void pickup(HikariDataSource other) throws Exception {
    db.emptyJobs();
    PickupRun.Latency latency;
    try (WorkerRun worker = new WorkerRun(db, settings.threads(), PickupRun.POLL_INTERVAL)) {
      worker.start();
      latency =
          new PickupRun(db).measure(worker, other, settings.pickupJobs(), Duration.ofMillis(10));
    }
    figures.add("c.taskq.pickup_p50", "ms", latency.p50());
    figures.add("c.taskq.pickup_p99", "ms", latency.p99());
    figures.add("c.taskq.pickup_max", "ms", latency.max());
  }

  private void printRatios() {
    System.out.println();
    System.out.println("TaskQ / baseline and targets (medians):");
    figures.printRatio(
        "a. enqueue rate / raw INSERT", "a.taskq.enqueue_rate", "baseline.insert_rate", 1.0);
    figures.printRatio(
        "a. enqueue rate / raw INSERT into jobs",
        "a.taskq.enqueue_rate",
        "baseline.insert_jobs_table_rate",
        1.0);
    figures.printRatio(
        "b. end-to-end rate / raw claim", "b.taskq.end_to_end_rate", "baseline.claim_rate", 1.5);
    figures.printAtMost("b. write transactions per job", "b.taskq.write_xacts_per_job", 0.3);
    if (settings.has('c')) {
      figures.printBelow("c. pickup p50", "c.taskq.pickup_p50", 5);
      figures.printBelow("c. pickup p99", "c.taskq.pickup_p99", 20);
    } else {
      figures.printNotRun("c. pickup p50");
      figures.printNotRun("c. pickup p99");
    }
  }

  /** (d) Many jobs under the small heap: the heap stays flat. */
  private void soak(JobsClient client) throws Exception {
    int jobs = settings.soakJobs();
    System.out.printf(
        Locale.ROOT,
        "%n(d) %d jobs under a %.0f MiB heap:%n",
        jobs,
        mib(HeapSampler.maxHeapBytes()));
    db.emptyJobs();
    new EnqueueRun(client).enqueue(jobs);
    db.analyze("jobs");
    long liveBefore = HeapSampler.liveHeapBytes();
    long start = System.nanoTime();
    List<Long> samples;
    List<Long> floors;
    try (HeapSampler sampler = new HeapSampler();
        WorkerRun worker = new WorkerRun(db, settings.threads(), WorkerRun.DEFAULT_POLL_INTERVAL)) {
      worker.start();
      worker.awaitSucceeded(jobs, n -> {});
      samples = sampler.samples();
      floors = sampler.windowFloors();
    }
    long nanos = System.nanoTime() - start;
    long liveAfter = HeapSampler.liveHeapBytes();
    System.out.printf(
        Locale.ROOT,
        "  processed in %.1f s (%.0f jobs/s); %d heap samples, min %.1f MiB, max %.1f MiB%n",
        seconds(nanos),
        jobs / seconds(nanos),
        samples.size(),
        mib(samples.stream().mapToLong(Long::longValue).min().orElse(0)),
        mib(samples.stream().mapToLong(Long::longValue).max().orElse(0)));
    System.out.printf(
        Locale.ROOT,
        "  heap floor per %d s window (MiB): %s%n",
        HeapSampler.WINDOW,
        floors.stream().map(b -> String.format(Locale.ROOT, "%.1f", mib(b))).toList());
    System.out.printf(
        Locale.ROOT,
        "  live heap after a full GC: %.1f MiB before the run, %.1f MiB after%n",
        mib(liveBefore),
        mib(liveAfter));
  }

  /** (e) Issue 4: an expired-lock backlog drained by S1 in default-size batches. */
  private void backlog() throws Exception {
    int rows = settings.backlogRows();
    System.out.printf(Locale.ROOT, "%n(e) S1 drain of a %d-row expired-lock backlog:%n", rows);
    ReclaimBacklogRun run = new ReclaimBacklogRun(db);
    RawReclaimBaseline rawReclaim = new RawReclaimBaseline(db.pool, db.schema.quoted());
    int drainBatches = ReclaimBacklogRun.drainBatches(settings.drainBatches(), rows);
    System.out.printf(
        Locale.ROOT,
        "  batch size %d (the default), up to %d batches per sweep tick (%s), tick every %d s%n",
        ReclaimBacklogRun.BATCH_SIZE,
        drainBatches,
        settings.drainBatches() == 0
            ? "--drain-batches 0: the whole backlog in one tick, as for a known large recovery;"
                + " the default 8 paces it at 8 batches per tick"
            : "--drain-batches; waits up to "
                + ReclaimBacklogRun.waitBound(rows, drainBatches).toMinutes()
                + " minutes",
        ReclaimBacklogRun.SWEEP_INTERVAL.toSeconds());
    for (int i = 1; i <= settings.runs(); i++) {
      db.emptyJobs();
      run.insertBacklog(rows);
      ReclaimBacklogRun.Drain d = run.drain(rows, drainBatches);
      System.out.print(d.pace(drainBatches));
      figures.add("e.reclaim_rate", "rows/s", d.rowsPerSecond());
      figures.add("e.reclaim_ms_per_row", "ms", d.millisPerRow());
      figures.add("e.batch_p50", "ms", Figures.quantile(d.batchNanos(), 0.5) / 1e6);
      figures.add("e.batch_p99", "ms", Figures.quantile(d.batchNanos(), 0.99) / 1e6);
      figures.add("e.batch_max", "ms", Figures.quantile(d.batchNanos(), 1.0) / 1e6);
      figures.add("e.statements_per_batch", "stmts", d.statementsPerBatch());
      figures.add("e.batches", "batches", d.batches());
      figures.add("e.batch_ms_per_row", "ms", d.batchMillisPerRow());
      rawReclaim.insertBacklog(rows);
      RawReclaimBaseline.Drain r = rawReclaim.drain(rows, ReclaimBacklogRun.BATCH_SIZE);
      figures.add("e.baseline.reclaim_rate", "rows/s", r.rowsPerSecond());
      figures.add("e.baseline.reclaim_ms_per_row", "ms", r.millisPerRow());
      figures.add("e.baseline.batch_p50", "ms", Figures.quantile(r.batchNanos(), 0.5) / 1e6);
      figures.add("e.baseline.batch_p99", "ms", Figures.quantile(r.batchNanos(), 0.99) / 1e6);
      figures.add("e.baseline.batch_ms_per_row", "ms", r.batchMillisPerRow());
    }
    figures.printMedians("e.");
    System.out.printf(
        Locale.ROOT,
        "  beside raw SQL's drain (no history written, one connection, batches of %d): S1's batch"
            + " time per row %.2fx raw's; its rate %.2fx raw's (S1's from the leader's start, with"
            + " its ticks' pacing)%n",
        ReclaimBacklogRun.BATCH_SIZE,
        figures.median("e.batch_ms_per_row") / figures.median("e.baseline.batch_ms_per_row"),
        figures.median("e.reclaim_rate") / figures.median("e.baseline.reclaim_rate"));
    if (settings.drainBatches() == 0) {
      figures.printBelow("e. reclaim time per row", "e.reclaim_ms_per_row", 0.2);
    } else {
      // Paced by the drain bound, the wall time per row is the tick's pace by design (30 s over
      // 1 600 rows at the default 8): the target reads the reclaim's own work, the batch time.
      figures.printBelow(
          "e. reclaim time per row (batch time; the drain is paced)", "e.batch_ms_per_row", 0.2);
    }
    figures.printBelow("e. batch duration p99", "e.batch_p99", 175);
  }

  static double seconds(long nanos) {
    return nanos / 1e9;
  }

  static double mib(long bytes) {
    return bytes / 1048576.0;
  }

  private static String stringArg(String[] args, String name, String fallback) {
    for (int i = 0; i + 1 < args.length; i++) {
      if (args[i].equals(name)) {
        return args[i + 1];
      }
    }
    return fallback;
  }

  static int intArg(String[] args, String name, int fallback) {
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
