package io.taskq.examples;

import java.io.PrintStream;
import java.util.Locale;

/**
 * The closing summary: each figure with what it measures, so the completion rate of the demo's
 * sleeping handlers is not mistaken for TaskQ's throughput ({@code docs/benchmarks.md} measures
 * that).
 */
record DemoSummary(
    DemoReport.Counts counts,
    long total,
    double wallSeconds,
    double busySeconds,
    int concurrency,
    double pickupP50Millis,
    double pickupP99Millis,
    String database) {

  void print(PrintStream out) {
    out.println();
    out.println("Summary (" + database + ", schema " + Demo.SCHEMA + ")");
    printOutcomes(out);
    printTimes(out);
  }

  /** What became of the jobs: succeeded, failed for good, retried. */
  private void printOutcomes(PrintStream out) {
    row(out, "jobs succeeded", counts.succeeded() + " of " + total, "ran to success");
    row(out, "failed for good", counts.failed(), "used up every attempt (none expected)");
    row(
        out,
        "retries",
        counts.retries(),
        "failed attempts of demo.sync_payment run again through the retry policy stamped on each"
            + " job");
  }

  /** How long it took: wall time, the demo's completion rate, the pickup latency. */
  private void printTimes(PrintStream out) {
    row(
        out,
        "wall time",
        String.format(Locale.ROOT, "%.1f s", wallSeconds),
        "from the enqueue of " + total + " jobs in one round trip until the last one finished");
    row(
        out,
        "completion rate",
        String.format(Locale.ROOT, "%.0f jobs/s", total / wallSeconds),
        rateMeaning());
    row(
        out,
        "pickup latency",
        String.format(Locale.ROOT, "p50 %.1f ms, p99 %.1f ms", pickupP50Millis, pickupP99Millis),
        "from calling enqueue() to the handler starting, for "
            + Demo.LATENCY_PROBES
            + " single jobs sent one every 5 ms to idle workers (woken by LISTEN/NOTIFY)");
  }

  /** What the completion rate measures: the demo's sleeping handlers, not TaskQ. */
  private String rateMeaning() {
    return String.format(
        Locale.ROOT,
        "jobs finished per second of wall time, bounded by the demo's handlers: they sleep 1-300"
            + " ms each and kept the %d worker threads %.0f%% busy. It measures the demo, not"
            + " TaskQ (see docs/benchmarks.md)",
        concurrency,
        100 * busySeconds / Math.max(1e-9, wallSeconds * concurrency));
  }

  private static void row(PrintStream out, String name, Object value, String meaning) {
    out.printf(Locale.ROOT, "  %-16s %-22s %s%n", name, value, meaning);
  }
}
