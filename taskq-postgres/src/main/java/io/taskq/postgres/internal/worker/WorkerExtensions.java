package io.taskq.postgres.internal.worker;

import io.taskq.limits.RateLimiter;
import io.taskq.postgres.internal.execution.ProgressSink;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * What a worker offers handlers beyond running them (M5): the rate limit each limited actor's jobs
 * wait for, and where progress reports go.
 *
 * @param limiterByActor the limiter of every rate-limited actor, by actor name
 * @param maxKeyedRateLimits {@code max_keyed_rate_limits}: the most keys the worker's registry of
 *     keyed limits holds (S10)
 * @param keyIdleAfter how long a key stays registered unused before it is evicted
 * @param reclaimKeys the reclaim drain of evicted keys (deletes their idle PostgreSQL rows)
 * @param evictionInterval how often the worker evicts idle keys and drains them (the sweep
 *     interval; not leader-gated, S10)
 * @param progress where handlers' progress reports go
 */
public record WorkerExtensions(
    Map<String, RateLimiter> limiterByActor,
    int maxKeyedRateLimits,
    Duration keyIdleAfter,
    Consumer<List<String>> reclaimKeys,
    Duration evictionInterval,
    ProgressSink progress) {
  /** No rate limits; progress reports validated and dropped. */
  public static final WorkerExtensions NONE =
      new WorkerExtensions(
          Map.of(),
          1,
          Duration.ofMinutes(1),
          names -> {},
          Duration.ofMinutes(1),
          ProgressSink.NONE);

  /** Copies the map and checks the values. */
  public WorkerExtensions {
    limiterByActor = Map.copyOf(limiterByActor);
    Objects.requireNonNull(keyIdleAfter, "keyIdleAfter");
    Objects.requireNonNull(reclaimKeys, "reclaimKeys");
    Objects.requireNonNull(evictionInterval, "evictionInterval");
    Objects.requireNonNull(progress, "progress");
    if (maxKeyedRateLimits < 1) {
      throw new IllegalArgumentException(
          "max_keyed_rate_limits must be at least 1, was " + maxKeyedRateLimits);
    }
  }
}
