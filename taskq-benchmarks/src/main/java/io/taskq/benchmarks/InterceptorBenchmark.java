package io.taskq.benchmarks;

import io.taskq.JobInterceptor;
import io.taskq.JobsClient;
import io.taskq.SchemaName;
import java.util.List;
import java.util.Locale;

/**
 * What handler middleware costs (P6): end-to-end throughput of the no-op actor with no interceptor
 * against one no-op interceptor registered on the TaskQ, in the same run. Each round enqueues the
 * same backlog and drains it with one worker, once per variant, the order alternating round by
 * round so both see the same machine load; the medians and their ratio are printed (the target: the
 * interceptor run within 3% of the plain one).
 *
 * <p>{@code java -cp ... io.taskq.benchmarks.InterceptorBenchmark [jobs] [rounds] [threads]}
 * (defaults 20 000, 5, 8), on {@code TASKQ_DATABASE_URL} or the local PostgreSQL, in schema {@value
 * #SCHEMA} (recreated).
 */
public final class InterceptorBenchmark {
  static final String SCHEMA = "taskq_bench_interceptor";

  private static final String NONE = "p6.none.end_to_end_rate";
  private static final String ONE = "p6.one_noop_interceptor.end_to_end_rate";

  /** Proceeds and returns what the chain returned: the cheapest interceptor there is. */
  private static final JobInterceptor NO_OP = JobInterceptor.Execution::proceed;

  private InterceptorBenchmark() {}

  public static void main(String[] args) throws Exception {
    int jobs = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    int threads = args.length > 2 ? Integer.parseInt(args[2]) : 8;
    System.out.printf(
        Locale.ROOT,
        "Interceptor cost: %d rounds of %d jobs, %d threads, %d cores%n",
        rounds,
        jobs,
        threads,
        Runtime.getRuntime().availableProcessors());
    Figures figures = new Figures();
    try (BenchDatabase db = BenchDatabase.open(SchemaName.of(SCHEMA), threads + 8)) {
      JobsClient client = Roots.producer(db.pool, db.schema).jobs();
      drain(db, client, jobs, threads, List.of()); // warm-up, not recorded
      for (int round = 1; round <= rounds; round++) {
        System.out.printf(Locale.ROOT, "Round %d of %d:%n", round, rounds);
        boolean plainFirst = round % 2 == 1;
        for (int i = 0; i < 2; i++) {
          boolean plain = (i == 0) == plainFirst;
          double rate = drain(db, client, jobs, threads, plain ? List.of() : List.of(NO_OP));
          figures.add(plain ? NONE : ONE, "jobs/s", rate);
        }
      }
    }
    figures.printMedians("p6.");
    double ratio = figures.median(ONE) / figures.median(NONE);
    System.out.printf(
        Locale.ROOT,
        "  %-44s %14.4f x      target >= 0.97     %s%n",
        "one no-op interceptor / none",
        ratio,
        ratio >= 0.97 ? "met" : "MISSED");
  }

  /** Enqueues {@code jobs} no-op jobs, then times one worker from start() until all succeeded. */
  private static double drain(
      BenchDatabase db, JobsClient client, int jobs, int threads, List<JobInterceptor> interceptors)
      throws Exception {
    db.emptyJobs();
    new EnqueueRun(client).enqueue(jobs);
    long start = System.nanoTime();
    try (WorkerRun worker =
        new WorkerRun(db, threads, WorkerRun.DEFAULT_POLL_INTERVAL, interceptors)) {
      worker.start();
      worker.awaitSucceeded(jobs, n -> {});
      return jobs / ((System.nanoTime() - start) / 1e9);
    }
  }
}
