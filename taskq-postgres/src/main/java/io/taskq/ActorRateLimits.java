package io.taskq;

import io.taskq.limits.Gcra;
import io.taskq.limits.PostgresSlidingWindow;
import io.taskq.limits.RateLimit;
import io.taskq.limits.RateLimiter;
import io.taskq.limits.SlidingWindowLog;
import io.taskq.limits.TokenBucket;
import io.taskq.postgres.internal.Handles;
import io.taskq.postgres.internal.execution.ProgressSink;
import io.taskq.postgres.internal.worker.WorkerExtensions;
import io.taskq.progress.ProgressReporter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiFunction;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Resolves the rate limits the registered actors declare into the limiters the worker asks (M5),
 * and wires the keyed registry's reclaim drain (S10) to the PostgreSQL rows.
 */
final class ActorRateLimits {
  /** How long a key stays in the worker's registry unused when the keyed-row sweep is off. */
  static final Duration DEFAULT_KEY_IDLE = Duration.ofMinutes(10);

  private static final Logger LOG = LoggerFactory.getLogger(ActorRateLimits.class);

  private ActorRateLimits() {}

  /**
   * The sliding window PostgreSQL keeps for {@code limit}: the limit itself for a sliding-window
   * log; for a token bucket or GCRA, a window that never admits more than they would (the burst,
   * per the time the burst takes to earn back). See {@code docs/rate-limits.md}.
   */
  static SlidingWindowLog postgresShape(RateLimit limit) {
    if (limit instanceof SlidingWindowLog window) {
      return window;
    }
    if (limit instanceof TokenBucket bucket) {
      return SlidingWindowLog.of(
          bucket.capacity(),
          Duration.ofNanos(bucket.refillIntervalMicros() * 1000 * bucket.capacity()));
    }
    Gcra gcra = (Gcra) limit;
    return SlidingWindowLog.of(
        gcra.burst(), Duration.ofNanos(gcra.emissionIntervalMicros() * 1000 * gcra.burst()));
  }

  /** The PostgreSQL limiter of {@code declared}: default when no factory is configured. */
  static PostgresSlidingWindow postgres(
      DataSource dataSource, TaskQConfig config, Actor.ActorRateLimit declared) {
    SlidingWindowLog shape = postgresShape(declared.limit());
    if (!shape.equals(declared.limit())) {
      LOG.info(
          "rate limit '{}' ({}) is kept in PostgreSQL as {}: without Redis only the sliding-window"
              + " log has a PostgreSQL store, and this window never admits more",
          declared.name(),
          declared.limit(),
          shape);
    }
    return Handles.slidingWindows()
        .create(dataSource, config.schemaName(), shape, declared.keyed());
  }

  /** The worker's rate limits and progress sink for {@code actors}. */
  static WorkerExtensions extensions(
      DataSource dataSource,
      TaskQConfig config,
      Collection<Actor<?>> actors,
      @Nullable BiFunction<Actor.ActorRateLimit, RateLimiter, RateLimiter> factory,
      ProgressReporter progress) {
    Map<String, RateLimiter> byActor = new LinkedHashMap<>();
    Map<String, PostgresSlidingWindow> keyedRows = new LinkedHashMap<>();
    for (Actor<?> actor : actors) {
      Actor.ActorRateLimit declared = actor.rateLimit().orElse(null);
      if (declared == null) {
        continue;
      }
      RateLimiter postgres = postgres(dataSource, config, declared);
      RateLimiter limiter = factory == null ? postgres : factory.apply(declared, postgres);
      if (limiter == null) {
        throw new IllegalStateException(
            "the rate-limiter factory returned null for actor '" + actor.name() + "'");
      }
      byActor.put(actor.name(), limiter);
      if (declared.keyed() && limiter instanceof PostgresSlidingWindow rows) {
        keyedRows.put(declared.name() + ":", rows);
      }
    }
    Duration sweep = config.sweepInterval();
    Duration reclaim = config.keyedRowReclaimPeriod();
    return new WorkerExtensions(
        byActor,
        config.maxKeyedRateLimits(),
        reclaim.isZero() ? DEFAULT_KEY_IDLE : reclaim,
        names -> forget(keyedRows, names),
        sweep.isZero() ? Duration.ofMinutes(1) : sweep,
        ProgressSink.to(progress));
  }

  /**
   * S10 drain: each evicted key goes to the limiter whose name is its longest prefix; names no
   * PostgreSQL limiter owns are left to S9.
   */
  private static void forget(Map<String, PostgresSlidingWindow> byPrefix, List<String> names) {
    Map<String, List<String>> grouped = new LinkedHashMap<>();
    for (String name : names) {
      String owner = null;
      for (String prefix : byPrefix.keySet()) {
        if (name.startsWith(prefix) && (owner == null || prefix.length() > owner.length())) {
          owner = prefix;
        }
      }
      if (owner != null) {
        grouped.computeIfAbsent(owner, p -> new ArrayList<>()).add(name);
      }
    }
    grouped.forEach((prefix, mine) -> Objects.requireNonNull(byPrefix.get(prefix)).forget(mine));
  }
}
