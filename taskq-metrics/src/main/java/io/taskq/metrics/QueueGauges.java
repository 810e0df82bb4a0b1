package io.taskq.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One queue's gauges of a {@link QueueSampler}, {@code taskq.queue.depth{queue}} and {@code
 * taskq.queue.oldest_pending_age{queue}}: the last read values, strongly held so the registry's
 * gauges never go NaN.
 */
final class QueueGauges {
  private final AtomicLong depth = new AtomicLong();
  private final AtomicLong ageMillis = new AtomicLong();

  private QueueGauges() {}

  /** Registers {@code queue}'s two gauges in {@code registry}, both reading 0 until set. */
  static QueueGauges register(MeterRegistry registry, String queue) {
    QueueGauges g = new QueueGauges();
    Tags tags = Tags.of("queue", queue);
    Gauge.builder(MeterNames.QUEUE_DEPTH, g.depth, AtomicLong::doubleValue)
        .description("Pending jobs on the queue, as the last successful sampler read saw them")
        .tags(tags)
        .strongReference(true)
        .register(registry);
    Gauge.builder(MeterNames.QUEUE_OLDEST_PENDING_AGE, g.ageMillis, a -> a.get() / 1000.0)
        .description("Age of the oldest runnable pending job on the queue")
        .baseUnit("seconds")
        .tags(tags)
        .strongReference(true)
        .register(registry);
    return g;
  }

  /** Sets the values the gauges report until the next read. */
  void set(long depthNow, Duration age) {
    depth.set(depthNow);
    ageMillis.set(age.toMillis());
  }
}
