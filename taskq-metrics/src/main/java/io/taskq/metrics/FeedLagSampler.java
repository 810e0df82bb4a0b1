package io.taskq.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.taskq.feed.ReclaimFeedLag;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Samples how far the crash-reclaim feed is held back by running transactions (D12, {@code
 * ReclaimEventFeed.lag()}) into three gauges, and keeps the last reading for {@code /ready}:
 *
 * <ul>
 *   <li>{@code taskq.events.feed_held_back}: committed reclaim events not yet deliverable;
 *   <li>{@code taskq.events.feed_held_back_age} (seconds): how long the oldest of them has waited;
 *   <li>{@code taskq.events.oldest_transaction_age} (seconds): the age of the running transaction
 *       with the oldest transaction id, the one holding the feed back.
 * </ul>
 *
 * Like {@link QueueSampler}, it reads on its own schedule, never on the scrape thread; a failed
 * read counts under {@code taskq.maintenance_leader.sweep_timeouts{sweep_name}} with its own name
 * and the gauges keep their last values. Thread-safe.
 */
public final class FeedLagSampler {
  private static final Logger LOG = LoggerFactory.getLogger(FeedLagSampler.class);

  private final String sweepName;
  private final Callable<ReclaimFeedLag> source;
  private final Counter failedReads;
  private final AtomicLong heldBack = new AtomicLong();
  private final AtomicLong heldBackAgeMillis = new AtomicLong();
  private final AtomicLong oldestTransactionAgeMillis = new AtomicLong();
  private final AtomicReference<@Nullable ReclaimFeedLag> last = new AtomicReference<>();

  /**
   * A sampler that has not read yet; registers its gauges in {@code registry} at once.
   *
   * @param registry the registry its gauges and failure counter are registered in
   * @param sweepName the {@code sweep_name} its failed reads count under, e.g. {@code
   *     event_feed_lag}
   * @param source the reading, e.g. {@code taskq.reclaimEvents()::lag}
   * @throws IllegalArgumentException when {@code sweepName} is blank
   */
  public FeedLagSampler(String sweepName, Callable<ReclaimFeedLag> source, MeterRegistry registry) {
    this.sweepName = TaskQMetrics.label(sweepName, "sweepName");
    this.source = Objects.requireNonNull(source, "source");
    Objects.requireNonNull(registry, "registry");
    this.failedReads = TaskQMetrics.sweepTimeouts(registry, sweepName);
    Gauge.builder(MeterNames.EVENT_FEED_HELD_BACK, heldBack, AtomicLong::doubleValue)
        .description("Committed reclaim events waiting for an older running transaction to end")
        .strongReference(true)
        .register(registry);
    Gauge.builder(MeterNames.EVENT_FEED_HELD_BACK_AGE, heldBackAgeMillis, a -> a.get() / 1000.0)
        .description("How long the oldest reclaim event held back by a running transaction waited")
        .baseUnit("seconds")
        .strongReference(true)
        .register(registry);
    Gauge.builder(
            MeterNames.EVENT_FEED_OLDEST_TRANSACTION_AGE,
            oldestTransactionAgeMillis,
            a -> a.get() / 1000.0)
        .description("Age of the running transaction with the oldest id, which holds the feed back")
        .baseUnit("seconds")
        .strongReference(true)
        .register(registry);
  }

  /** {@return the {@code sweep_name} failed reads count under} */
  public String sweepName() {
    return sweepName;
  }

  /** {@return the last successful reading, or null before the first} */
  public @Nullable ReclaimFeedLag last() {
    return last.get();
  }

  /**
   * Reads the source once and updates the gauges.
   *
   * @return whether the read succeeded
   */
  public boolean sampleOnce() {
    ReclaimFeedLag lag =
        SamplerRead.read(
            () -> {
              ReclaimFeedLag read = Objects.requireNonNull(source.call(), "the feed lag reading");
              heldBack.set(read.heldBackEvents());
              heldBackAgeMillis.set(read.oldestHeldBackEventAge().toMillis());
              oldestTransactionAgeMillis.set(read.oldestTransactionAge().toMillis());
              return read;
            },
            failedReads,
            sweepName,
            LOG);
    if (lag == null) {
      return false;
    }
    last.set(lag);
    return true;
  }
}
