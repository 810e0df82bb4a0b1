package io.taskq.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a {@link QueueReadings} source into the per-queue gauges {@code taskq.queue.depth{queue}}
 * and {@code taskq.queue.oldest_pending_age{queue}} (seconds).
 *
 * <p>A gauge must never run a query on the scrape thread (a slow database would stall every scrape
 * and every other meter with it), so the sampler reads on its own schedule and the gauges report
 * the last successful read. A failed read is a gauge read that did not happen: it counts under
 * {@code taskq.maintenance_leader.sweep_timeouts{sweep_name}} with this sampler's own name (guide
 * "What degradation looks like", O1) and the gauges keep their previous values. A queue missing
 * from a successful read reports depth 0 and age 0. A failed read logs its exception's class only:
 * a driver's message may carry a connection string.
 *
 * <p>Thread-safe; {@link #sampleOnce()} may be called from any thread.
 */
public final class QueueSampler {
  private static final Logger LOG = LoggerFactory.getLogger(QueueSampler.class);

  private final String sweepName;
  private final QueueReadings source;
  private final MeterRegistry registry;
  private final Counter failedReads;
  private final Map<String, QueueGauges> queues = new ConcurrentHashMap<>();

  /**
   * A sampler that has not read yet.
   *
   * @param sweepName the {@code sweep_name} its failed reads count under, e.g. {@code queue_depth}
   * @param source the readings, e.g. the PostgreSQL store's queue-depth query
   * @param registry the application's registry
   * @throws IllegalArgumentException when {@code sweepName} is blank
   */
  public QueueSampler(String sweepName, QueueReadings source, MeterRegistry registry) {
    this.sweepName = TaskQMetrics.label(sweepName, "sweepName");
    this.source = Objects.requireNonNull(source, "source");
    this.registry = Objects.requireNonNull(registry, "registry");
    this.failedReads = TaskQMetrics.sweepTimeouts(registry, sweepName);
  }

  /** {@return the {@code sweep_name} failed reads count under} */
  public String sweepName() {
    return sweepName;
  }

  /**
   * Reads the source once and updates the gauges.
   *
   * @return whether the read succeeded
   */
  public boolean sampleOnce() {
    return SamplerRead.read(
            () -> {
              apply(source.read());
              return Boolean.TRUE;
            },
            failedReads,
            sweepName,
            LOG)
        != null;
  }

  /**
   * Samples every {@code period} on {@code executor} until the returned future is cancelled.
   *
   * @param executor the executor that runs each sample
   * @param period the delay between the end of one sample and the start of the next, positive
   * @return the scheduled sampling; cancel it to stop
   * @throws IllegalArgumentException when {@code period} is not positive
   */
  public ScheduledFuture<?> schedule(ScheduledExecutorService executor, Duration period) {
    if (period.isNegative() || period.isZero()) {
      throw new IllegalArgumentException("period must be positive, was " + period);
    }
    long millis = period.toMillis();
    return executor.scheduleWithFixedDelay(this::sampleOnce, 0, millis, TimeUnit.MILLISECONDS);
  }

  private void apply(Iterable<QueueReading> readings) {
    Set<String> seen = new HashSet<>();
    for (QueueReading reading : readings) {
      seen.add(reading.queue());
      gauges(reading.queue()).set(reading.depth(), reading.oldestPendingAge());
    }
    queues.forEach(
        (queue, gauges) -> {
          if (!seen.contains(queue)) {
            gauges.set(0, Duration.ZERO);
          }
        });
  }

  private QueueGauges gauges(String queue) {
    return queues.computeIfAbsent(queue, q -> QueueGauges.register(registry, q));
  }
}
