package io.taskq.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Heap used, sampled once a second on a daemon thread, for figure (d).
 *
 * <p>A single sample says little (it depends on when the last young collection ran); the lowest
 * sample of each window of {@value #WINDOW} seconds approximates the live heap after a collection,
 * and comparing the first window's floor with the last one's shows whether the heap grows with the
 * number of jobs processed.
 */
final class HeapSampler implements AutoCloseable {
  static final int WINDOW = 5;

  private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

  private final List<Long> samples = new ArrayList<>();
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "bench-heap-sampler");
            t.setDaemon(true);
            return t;
          });
  private final ScheduledFuture<?> task;

  HeapSampler() {
    task = timer.scheduleAtFixedRate(this::sample, 0, 1, TimeUnit.SECONDS);
  }

  private void sample() {
    long used = MEMORY.getHeapMemoryUsage().getUsed();
    synchronized (samples) {
      samples.add(used);
    }
  }

  /** The samples so far, in bytes, oldest first. */
  List<Long> samples() {
    synchronized (samples) {
      return List.copyOf(samples);
    }
  }

  /** The lowest sample of each window of {@value #WINDOW} seconds, oldest first. */
  List<Long> windowFloors() {
    List<Long> all = samples();
    List<Long> floors = new ArrayList<>();
    for (int from = 0; from < all.size(); from += WINDOW) {
      long floor = Long.MAX_VALUE;
      for (int i = from; i < Math.min(all.size(), from + WINDOW); i++) {
        floor = Math.min(floor, all.get(i));
      }
      floors.add(floor);
    }
    return floors;
  }

  /** The heap that survives a full collection now (asks for one). */
  static long liveHeapBytes() {
    System.gc();
    return MEMORY.getHeapMemoryUsage().getUsed();
  }

  /**
   * The sum of the heap pools' peak usage since the JVM started (pools peak at different moments,
   * so this is an upper bound of the true peak).
   */
  static long peakHeapBytes() {
    long peak = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        peak += pool.getPeakUsage().getUsed();
      }
    }
    return peak;
  }

  /** The largest heap the JVM may use ({@code -Xmx}). */
  static long maxHeapBytes() {
    return MEMORY.getHeapMemoryUsage().getMax();
  }

  @Override
  public void close() {
    task.cancel(false);
    timer.shutdown();
  }
}
