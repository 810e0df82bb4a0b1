package io.taskq.postgres.internal.caps;

import io.taskq.core.internal.EvictingRegistry;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Objects;

/**
 * One worker's bounded registry of the reservation scopes it claimed slots of (S10).
 *
 * <p>Why: keyed scopes are high-cardinality (one per customer), and each leaves slot rows behind.
 * The registry remembers at most {@code maxEntries} scopes ({@code max_keyed_reservations}), least
 * recently used first out; {@link #evictIdle()} evicts the scopes unused for {@code idleAfter}.
 * Evicted <em>keyed</em> scopes wait in a pending set until {@link #drainEvicted(Drain)} hands
 * their names to the worker's reclaim drain, which deletes their free, idle slot rows. Queue and
 * actor scopes are few and their rows live for good, so evicting them only forgets them; a queue
 * scope goes by its process-local name {@code taskq:global:queue:{queue}} here (M7) and that name
 * never leaves the process. Evicting is always safe: a scope used again is registered again and its
 * rows are created on demand.
 *
 * <p>The pending set is capped at twice {@code maxEntries}, oldest dropped first: room for the
 * whole registry going idle at once on top of up to {@code maxEntries} names evicted by the cap (or
 * still held by this worker's jobs) since the last drain, so a burst of keys followed by quiet
 * loses no name to the cap whenever the drain's tick falls (a cap of {@code maxEntries} dropped the
 * cap-evicted names exactly then, when one tick saw them and the idle eviction together). What the
 * drain still misses, the leader's idle-row sweep (S9) reclaims. With nothing pending the drain is
 * not called, so it borrows no connection. Thread-safe; the drain runs outside the registry's lock.
 */
public final class ReservationRegistry {
  /** Receives the store names of evicted keyed scopes. */
  @FunctionalInterface
  public interface Drain extends EvictingRegistry.Reclaim<Exception> {
    /**
     * Reclaims the rows of {@code keyedScopeNames}; returns the names to keep pending for the next
     * drain (those whose rows could not go yet, being in use by this worker).
     */
    @Override
    List<String> reclaim(List<String> keyedScopeNames) throws Exception;
  }

  private final int maxEntries;
  private final Duration idleAfter;
  private final EvictingRegistry<Scope, Boolean> entries;

  /**
   * A registry of at most {@code maxEntries} scopes, evicting the ones idle for {@code idleAfter}.
   *
   * @throws IllegalArgumentException when {@code maxEntries} is below 1 or {@code idleAfter} is not
   *     positive
   */
  public ReservationRegistry(int maxEntries, Duration idleAfter, InstantSource clock) {
    if (maxEntries < 1) {
      throw new IllegalArgumentException("max_keyed_reservations must be >= 1, was " + maxEntries);
    }
    Objects.requireNonNull(idleAfter, "idleAfter");
    if (idleAfter.isNegative() || idleAfter.isZero()) {
      throw new IllegalArgumentException("idleAfter must be positive, was " + idleAfter);
    }
    this.maxEntries = maxEntries;
    this.idleAfter = idleAfter;
    // Queue (process-local name, M7) and actor rows live for good: only keyed scopes are drained.
    this.entries =
        new EvictingRegistry<>(
            maxEntries,
            (int) Math.min(Integer.MAX_VALUE, 2L * maxEntries),
            idleAfter,
            Objects.requireNonNull(clock, "clock"),
            scope -> scope.keyed() ? scope.name() : null);
  }

  /** Registers (or touches) the scopes of a claimed job. */
  public void touch(List<Scope> scopes) {
    for (Scope scope : scopes) {
      entries.touch(scope, s -> Boolean.TRUE);
    }
  }

  /**
   * Evicts every scope unused for at least {@code idleAfter}; returns how many. Call it on the
   * worker's keyed-eviction tick, before {@link #drainEvicted(Drain)}.
   */
  public int evictIdle() {
    return entries.evictIdle();
  }

  /**
   * Hands the evicted keyed scope names to {@code drain} and forgets them, but for the ones it
   * returns; returns how many it handed. With nothing pending it does not call {@code drain}. If
   * {@code drain} throws, the names stay pending (unless registered again meanwhile) and the
   * exception propagates.
   */
  public int drainEvicted(Drain drain) throws Exception {
    return entries.drainEvicted(drain);
  }

  /** Whether a scope of that registry name ({@link Scope#registryName()}) is registered. */
  public boolean contains(String registryName) {
    return entries.keys().stream().anyMatch(s -> s.registryName().equals(registryName));
  }

  /** The registry names of the registered scopes, least recently used first. */
  public List<String> registryNames() {
    return entries.keys().stream().map(Scope::registryName).toList();
  }

  /** The evicted keyed scope names not drained yet, oldest first. */
  public List<String> pendingEvictions() {
    return entries.pendingEvictions();
  }

  /** How many scopes are registered; never more than {@code maxEntries}. */
  public int size() {
    return entries.size();
  }

  @Override
  public String toString() {
    return "ReservationRegistry{max=" + maxEntries + ", idleAfter=" + idleAfter + "}";
  }
}
