package io.taskq.benchmarks;

import io.taskq.JobInterceptor;
import io.taskq.JobsClient;
import io.taskq.SchemaName;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * What handler middleware costs (P6): end-to-end throughput of the no-op actor with no interceptor
 * against one no-op interceptor registered on the TaskQ, in the same run. Each round enqueues the
 * same backlog and drains it with one worker, once per variant, the order alternating round by
 * round (A B, B A, ...) so both see the same machine load. Then as many concurrent rounds: the same
 * backlog in two schemas drained at the same time by a worker of each variant, so that both see the
 * same load at every instant (on a shared machine whose load moves within seconds, the fairer
 * pairing). It prints each run, the medians, each kind of round's ratio median and spread (the
 * target: the interceptor run within 3% of the plain one), and two figures of the alternating
 * rounds that the machine's load moves less: the process CPU time and the bytes allocated per job,
 * by variant.
 *
 * <p>{@code java -cp ... io.taskq.benchmarks.InterceptorBenchmark [jobs] [rounds] [threads]}
 * (defaults 5 000, 15, 8), on {@code TASKQ_DATABASE_URL} or the local PostgreSQL, in schemas
 * {@value #SCHEMA} and {@value #SCHEMA_B} (recreated).
 */
public final class InterceptorBenchmark {
  static final String SCHEMA = "taskq_bench_interceptor";

  /** The second schema of the concurrent rounds. */
  static final String SCHEMA_B = "taskq_bench_interceptor_b";

  private static final String NONE = "p6.none.end_to_end_rate";
  private static final String ONE = "p6.one_noop_interceptor.end_to_end_rate";
  private static final String CONCURRENT_NONE = "p6.concurrent.none.end_to_end_rate";
  private static final String CONCURRENT_ONE = "p6.concurrent.one_noop_interceptor.end_to_end_rate";
  private static final String NONE_CPU = "p6.none.cpu_per_job";
  private static final String ONE_CPU = "p6.one_noop_interceptor.cpu_per_job";
  private static final String NONE_ALLOC = "p6.none.allocated_per_job";
  private static final String ONE_ALLOC = "p6.one_noop_interceptor.allocated_per_job";

  /** Proceeds and returns what the chain returned: the cheapest interceptor there is. */
  private static final JobInterceptor NO_OP = JobInterceptor.Execution::proceed;

  private InterceptorBenchmark() {}

  /** One drain: its rate, the process CPU and the bytes allocated per job. */
  private record Run(double rate, double cpuMicrosPerJob, double bytesPerJob) {}

  public static void main(String[] args) throws Exception {
    int jobs = args.length > 0 ? Integer.parseInt(args[0]) : 5_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 15;
    int threads = args.length > 2 ? Integer.parseInt(args[2]) : 8;
    printHeader(jobs, rounds, threads);
    Figures figures = new Figures();
    List<Double> ratios = new ArrayList<>();
    List<Double> concurrentRatios;
    try (BenchDatabase db = BenchDatabase.open(SchemaName.of(SCHEMA), threads + 8)) {
      Backlog backlog = Backlog.of(db, jobs, threads);
      drain(backlog, List.of()); // warm-up, not recorded
      drain(backlog, List.of(NO_OP)); // warm-up, not recorded
      for (int round = 1; round <= rounds; round++) {
        System.out.printf(Locale.ROOT, "Round %d of %d:%n", round, rounds);
        ratios.add(alternatingRound(backlog, round % 2 == 1, figures));
      }
      concurrentRatios = concurrentRounds(backlog, rounds, figures);
    }
    printSummary(figures, ratios, concurrentRatios);
  }

  private static void printHeader(int jobs, int rounds, int threads) {
    System.out.printf(
        Locale.ROOT,
        "Interceptor cost: %d rounds of %d jobs, %d threads, %d cores, load average %.1f%n",
        rounds,
        jobs,
        threads,
        Runtime.getRuntime().availableProcessors(),
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
  }

  /** What an alternating round drains: {@code jobs} no-op jobs of one schema, {@code threads}. */
  private record Backlog(BenchDatabase db, JobsClient client, int jobs, int threads) {
    static Backlog of(BenchDatabase db, int jobs, int threads) {
      return new Backlog(db, Roots.producer(db.pool, db.schema).jobs(), jobs, threads);
    }
  }

  /**
   * One alternating round: a drain without the interceptor and one with it, the plain one first
   * when {@code plainFirst}; records both and returns the ratio one / none.
   */
  private static double alternatingRound(Backlog b, boolean plainFirst, Figures figures)
      throws Exception {
    double plainRate = 0;
    double oneRate = 0;
    for (int i = 0; i < 2; i++) {
      boolean plain = (i == 0) == plainFirst;
      Run run = drain(b, plain ? List.of() : List.of(NO_OP));
      figures.add(plain ? NONE : ONE, "jobs/s", run.rate());
      figures.add(plain ? NONE_CPU : ONE_CPU, "us CPU", run.cpuMicrosPerJob());
      figures.add(plain ? NONE_ALLOC : ONE_ALLOC, "bytes", run.bytesPerJob());
      if (plain) {
        plainRate = run.rate();
      } else {
        oneRate = run.rate();
      }
    }
    System.out.printf(
        Locale.ROOT, "  %-44s %14.4f x%n", "round ratio one / none", oneRate / plainRate);
    return oneRate / plainRate;
  }

  /** The concurrent rounds, against {@code b}'s schema and a second one; returns their ratios. */
  private static List<Double> concurrentRounds(Backlog b, int rounds, Figures figures)
      throws Exception {
    List<Double> concurrentRatios = new ArrayList<>();
    try (BenchDatabase other = BenchDatabase.open(SchemaName.of(SCHEMA_B), b.threads() + 8)) {
      Backlog o = Backlog.of(other, b.jobs(), b.threads());
      for (int round = 1; round <= rounds; round++) {
        System.out.printf(Locale.ROOT, "Concurrent round %d of %d:%n", round, rounds);
        // Which schema gets the interceptor alternates, so neither schema's state favours one.
        boolean swap = round % 2 == 0;
        double[] rates = concurrently(swap ? o : b, swap ? b : o);
        figures.add(CONCURRENT_NONE, "jobs/s", rates[0]);
        figures.add(CONCURRENT_ONE, "jobs/s", rates[1]);
        concurrentRatios.add(rates[1] / rates[0]);
        System.out.printf(
            Locale.ROOT, "  %-44s %14.4f x%n", "round ratio one / none", rates[1] / rates[0]);
      }
    }
    return concurrentRatios;
  }

  /** The medians, both kinds of round's ratios against the target, and the per-job costs. */
  private static void printSummary(
      Figures figures, List<Double> ratios, List<Double> concurrentRatios) {
    figures.printMedians("p6.");
    double medianRatio = printRatios("alternating rounds, one / none", ratios);
    double concurrentRatio = printRatios("concurrent rounds, one / none", concurrentRatios);
    verdict("alternating rounds: median ratio", medianRatio);
    verdict("concurrent rounds: median ratio", concurrentRatio);
    printMedianCosts(figures);
    System.out.printf(
        Locale.ROOT,
        "Load average at the end: %.1f%n",
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
  }

  /** The ratio of the medians, and what one interceptor adds per job by the medians. */
  private static void printMedianCosts(Figures figures) {
    double ratio = figures.median(ONE) / figures.median(NONE);
    System.out.printf(
        Locale.ROOT, "  %-44s %14.4f x%n", "one no-op interceptor / none (medians)", ratio);
    System.out.printf(
        Locale.ROOT,
        "  %-44s %14.2f us CPU, %.0f bytes%n",
        "one - none per job (medians)",
        figures.median(ONE_CPU) - figures.median(NONE_CPU),
        figures.median(ONE_ALLOC) - figures.median(NONE_ALLOC));
  }

  private static void verdict(String label, double ratio) {
    System.out.printf(
        Locale.ROOT,
        "  %-44s %14.4f x      target >= 0.97     %s%n",
        label,
        ratio,
        ratio >= 0.97 ? "met" : "MISSED");
  }

  /** Prints the median, quartiles and range of {@code ratios}; returns the median. */
  private static double printRatios(String label, List<Double> ratios) {
    List<Double> sorted = new ArrayList<>(ratios);
    sorted.sort(null);
    double median = quantile(sorted, 0.5);
    System.out.printf(
        Locale.ROOT,
        "  %-44s %14.4f x      quartiles %.4f .. %.4f, range %.4f .. %.4f, %d of %d rounds >= 1%n",
        label + ", median",
        median,
        quantile(sorted, 0.25),
        quantile(sorted, 0.75),
        sorted.get(0),
        sorted.get(sorted.size() - 1),
        sorted.stream().filter(r -> r >= 1).count(),
        sorted.size());
    return median;
  }

  /**
   * One concurrent round: the same backlog in two schemas, drained at the same time by two workers
   * of this process, the one of {@code plain} without an interceptor and the one of {@code one}
   * with the no-op interceptor, so that both see the same load at every instant; returns both
   * rates, plain first.
   */
  private static double[] concurrently(Backlog plain, Backlog one) throws Exception {
    plain.db().emptyJobs();
    one.db().emptyJobs();
    new EnqueueRun(plain.client()).enqueue(plain.jobs());
    new EnqueueRun(one.client()).enqueue(one.jobs());
    ExecutorService both = Executors.newFixedThreadPool(2);
    try (WorkerRun plainWorker =
            new WorkerRun(plain.db(), plain.threads(), WorkerRun.DEFAULT_POLL_INTERVAL, List.of());
        WorkerRun oneWorker =
            new WorkerRun(
                one.db(), one.threads(), WorkerRun.DEFAULT_POLL_INTERVAL, List.of(NO_OP))) {
      CountDownLatch go = new CountDownLatch(1);
      Future<Double> plainRate = both.submit(() -> timed(plainWorker, plain.jobs(), go));
      Future<Double> oneRate = both.submit(() -> timed(oneWorker, one.jobs(), go));
      go.countDown();
      return new double[] {plainRate.get(), oneRate.get()};
    } finally {
      both.shutdownNow();
    }
  }

  private static double timed(WorkerRun worker, int jobs, CountDownLatch go) throws Exception {
    go.await();
    long start = System.nanoTime();
    worker.start();
    worker.awaitSucceeded(jobs, n -> {});
    return jobs / ((System.nanoTime() - start) / 1e9);
  }

  /** Enqueues {@code jobs} no-op jobs, then times one worker from start() until all succeeded. */
  private static Run drain(Backlog b, List<JobInterceptor> interceptors) throws Exception {
    int jobs = b.jobs();
    b.db().emptyJobs();
    new EnqueueRun(b.client()).enqueue(jobs);
    System.gc();
    Map<Long, Long> allocatedBefore = allocatedByThread();
    long cpuBefore = processCpuNanos();
    long start = System.nanoTime();
    try (WorkerRun worker =
        new WorkerRun(b.db(), b.threads(), WorkerRun.DEFAULT_POLL_INTERVAL, interceptors)) {
      worker.start();
      worker.awaitSucceeded(jobs, n -> {});
      double rate = jobs / ((System.nanoTime() - start) / 1e9);
      double cpu = (processCpuNanos() - cpuBefore) / 1e3 / jobs;
      long allocated = 0;
      for (Map.Entry<Long, Long> e : allocatedByThread().entrySet()) {
        allocated += e.getValue() - allocatedBefore.getOrDefault(e.getKey(), 0L);
      }
      return new Run(rate, cpu, (double) allocated / jobs);
    }
  }

  /**
   * The {@code q} quantile of {@code sorted} (ascending, not empty), interpolated between ranks.
   */
  private static double quantile(List<Double> sorted, double q) {
    double at = q * (sorted.size() - 1);
    int low = (int) Math.floor(at);
    int high = Math.min(sorted.size() - 1, low + 1);
    return sorted.get(low) + (at - low) * (sorted.get(high) - sorted.get(low));
  }

  /** The process's CPU time (every thread, the JIT and the collector included). */
  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  /**
   * Bytes allocated so far by each live thread. The worker's threads are alive until it closes, so
   * the difference over a drain counts what its claim, handler and completion threads allocated.
   */
  private static Map<Long, Long> allocatedByThread() {
    com.sun.management.ThreadMXBean mx =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long[] ids = mx.getAllThreadIds();
    long[] bytes = mx.getThreadAllocatedBytes(ids);
    Map<Long, Long> byThread = new HashMap<>();
    for (int i = 0; i < ids.length; i++) {
      if (bytes[i] >= 0) {
        byThread.put(ids[i], bytes[i]);
      }
    }
    return byThread;
  }
}
