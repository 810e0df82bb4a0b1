package io.taskq.examples;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the demo's handlers measure about themselves: the time they spend (so the summary can say
 * how much of the run was the demo's own sleeping) and when each job's handler started (for the
 * pickup latency of the single jobs).
 */
final class DemoStats {
  private final LongAdder busyNanos = new LongAdder();
  private final Map<Long, Long> startedAt = new ConcurrentHashMap<>();

  /** Called first thing in a handler. */
  long started(long jobId) {
    long now = System.nanoTime();
    startedAt.putIfAbsent(jobId, now);
    return now;
  }

  /** Called last thing in a handler, with what {@link #started} returned. */
  void finished(long startNanos) {
    busyNanos.add(System.nanoTime() - startNanos);
  }

  /** Handler time summed over every attempt so far, in seconds. */
  double busySeconds() {
    return busyNanos.sum() / 1e9;
  }

  /**
   * The p50 and p99, in milliseconds, of first-handler-start minus {@code enqueuedAt} for the given
   * jobs ({@code enqueuedAt[i]} is when {@code enqueue} was called for {@code ids[i]}).
   */
  double[] pickupMillis(long[] ids, long[] enqueuedAt) {
    double[] ms = new double[ids.length];
    for (int i = 0; i < ids.length; i++) {
      Long start = startedAt.get(ids[i]);
      ms[i] = start == null ? Double.NaN : (start - enqueuedAt[i]) / 1e6;
    }
    Arrays.sort(ms);
    return new double[] {percentile(ms, 0.50), percentile(ms, 0.99)};
  }

  private static double percentile(double[] sorted, double p) {
    int index = (int) Math.ceil(p * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
  }
}
