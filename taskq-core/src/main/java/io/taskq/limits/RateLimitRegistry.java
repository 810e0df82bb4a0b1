package io.taskq.limits;

import io.taskq.TaskQConfig;
import io.taskq.core.internal.EvictingRegistry;
import io.taskq.core.internal.RedisKeys;
import io.taskq.core.internal.TextBoundary;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One worker's bounded registry of keyed rate limits (S10): the names this worker has used, each
 * with the limiter that serves it.
 *
 * <p>Why it exists: keyed limits are high-cardinality (one per customer, per IP), so a worker that
 * remembered every name forever would grow without bound, and the PostgreSQL fallback's per-name
 * rows would outlive their use. The registry holds at most {@code maxEntries} names ({@code
 * max_keyed_rate_limits}); a new name beyond the cap evicts the least recently used one, and {@link
 * #evictIdle()} evicts names unused for {@code idleAfter}. Evicting is always safe: a limit's state
 * lives in its store, so a name used again is simply registered again.
 *
 * <p>Evicted names wait in a pending set until {@link #drainEvicted(Consumer)} hands them to the
 * worker's reclaim drain (which deletes the fallback's rows). With nothing pending, the drain does
 * nothing and so borrows no connection. A name used again before the drain leaves the pending set;
 * process-local names ({@code taskq:global:queue:}, M7) never enter it, since no store holds them.
 * The pending set is itself capped at {@code maxEntries}, oldest dropped first: what the drain
 * misses, the leader's idle-row sweep (S9) reclaims later.
 *
 * <p>Thread-safe. The limiter call itself runs outside the registry's lock.
 */
public final class RateLimitRegistry implements RateLimiter {
  private final int maxEntries;
  private final Duration idleAfter;
  private final Function<String, RateLimiter> limiterForName;
  private final EvictingRegistry<String, RateLimiter> entries;

  private RateLimitRegistry(
      int maxEntries,
      Duration idleAfter,
      InstantSource clock,
      Function<String, RateLimiter> limiterForName) {
    this.maxEntries = RateLimit.positive(maxEntries, Integer.MAX_VALUE, "maxEntries");
    this.idleAfter = Objects.requireNonNull(idleAfter, "idleAfter");
    if (idleAfter.isNegative() || idleAfter.isZero()) {
      throw new IllegalArgumentException("idleAfter must be positive, was " + idleAfter);
    }
    this.limiterForName = Objects.requireNonNull(limiterForName, "limiterForName");
    this.entries =
        new EvictingRegistry<>(
            maxEntries,
            idleAfter,
            Objects.requireNonNull(clock, "clock"),
            name -> RedisKeys.isProcessLocal(name) ? null : name);
  }

  /**
   * {@return a registry of at most {@code maxEntries} names, evicting names idle for {@code
   * idleAfter}}
   *
   * @param maxEntries the most names held; the least recently used is evicted beyond it
   * @param idleAfter the idle time after which a name is evicted
   * @param clock the clock idleness is measured on
   * @param limiterForName the limiter serving a newly registered name (often the same limiter for
   *     every name); it must not return null
   * @throws IllegalArgumentException when {@code maxEntries} is below 1 or {@code idleAfter} is not
   *     positive
   */
  public static RateLimitRegistry create(
      int maxEntries,
      Duration idleAfter,
      InstantSource clock,
      Function<String, RateLimiter> limiterForName) {
    return new RateLimitRegistry(maxEntries, idleAfter, clock, limiterForName);
  }

  /**
   * {@return a registry capped by {@link TaskQConfig#maxKeyedRateLimits()}, on the system clock,
   * serving every name with {@code limiter}}
   *
   * @param config the configuration whose {@link TaskQConfig#maxKeyedRateLimits()} caps the
   *     registry
   * @param idleAfter the idle time after which a name is evicted
   * @param limiter the limiter of every name
   */
  public static RateLimitRegistry create(
      TaskQConfig config, Duration idleAfter, RateLimiter limiter) {
    Objects.requireNonNull(limiter, "limiter");
    return create(config.maxKeyedRateLimits(), idleAfter, InstantSource.system(), name -> limiter);
  }

  /** Registers (or touches) {@code name}, then asks its limiter. */
  @Override
  public Decision tryAcquire(String name, int permits) {
    requireName(name);
    return entries
        .touch(
            name,
            n -> Objects.requireNonNull(limiterForName.apply(n), "limiterForName returned null"))
        .tryAcquire(name, permits);
  }

  /**
   * Evicts every name unused for at least {@code idleAfter}; returns how many.
   *
   * <p>Call it on the worker's keyed-eviction tick, before {@link #drainEvicted(Consumer)}.
   *
   * @return the number of names evicted
   */
  public int evictIdle() {
    return entries.evictIdle();
  }

  /**
   * Hands the evicted store-bound names to {@code reclaim} and forgets them; returns how many. With
   * nothing pending it does not call {@code reclaim} at all. If {@code reclaim} throws, the names
   * stay pending (unless used again meanwhile) and the exception propagates.
   *
   * @param reclaim receives the evicted names that the store holds state for
   * @return the number of names handed over
   */
  public int drainEvicted(Consumer<List<String>> reclaim) {
    return entries.drainEvicted(
        names -> {
          reclaim.accept(names);
          return List.of();
        });
  }

  /** {@return the evicted names not yet drained, oldest first} */
  public List<String> pendingEvictions() {
    return entries.pendingEvictions();
  }

  /** {@return how many names are registered now; never more than {@code maxEntries}} */
  public int size() {
    return entries.size();
  }

  /**
   * {@return whether {@code name} is registered now}
   *
   * @param name the limit's name
   */
  public boolean contains(String name) {
    return entries.contains(name);
  }

  private static void requireName(String name) {
    if (name.isEmpty()) {
      throw new IllegalArgumentException("rate limit name must not be empty");
    }
    TextBoundary.requireNoNul(name, "rate limit name");
  }

  @Override
  public String toString() {
    return "RateLimitRegistry{max=" + maxEntries + ", idleAfter=" + idleAfter + "}";
  }
}
