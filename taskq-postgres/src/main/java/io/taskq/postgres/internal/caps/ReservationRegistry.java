package io.taskq.postgres.internal.caps;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
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
 * <p>The pending set is capped at {@code maxEntries} too, oldest dropped first: what the drain
 * misses, the leader's idle-row sweep (S9) reclaims. With nothing pending the drain is not called,
 * so it borrows no connection. Thread-safe; the drain runs outside the registry's lock.
 */
public final class ReservationRegistry {
  /** Receives the store names of evicted keyed scopes. */
  @FunctionalInterface
  public interface Drain {
    /**
     * Reclaims the rows of {@code keyedScopeNames}; returns the names to keep pending for the next
     * drain (those whose rows could not go yet, being in use by this worker).
     */
    List<String> reclaim(List<String> keyedScopeNames) throws Exception;
  }

  private final int maxEntries;
  private final Duration idleAfter;
  private final InstantSource clock;
  private final LinkedHashMap<Scope, Instant> entries = new LinkedHashMap<>(16, 0.75f, true);
  private final LinkedHashSet<String> pending = new LinkedHashSet<>();

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
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Registers (or touches) the scopes of a claimed job. */
  public synchronized void touch(List<Scope> scopes) {
    Instant now = clock.instant();
    for (Scope scope : scopes) {
      if (entries.put(scope, now) == null && scope.keyed()) {
        pending.remove(scope.name());
      }
    }
    Iterator<Scope> eldestFirst = entries.keySet().iterator();
    while (entries.size() > maxEntries) {
      Scope eldest = eldestFirst.next();
      eldestFirst.remove();
      markEvicted(eldest);
    }
  }

  /**
   * Evicts every scope unused for at least {@code idleAfter}; returns how many. Call it on the
   * worker's keyed-eviction tick, before {@link #drainEvicted(Drain)}.
   */
  public synchronized int evictIdle() {
    Instant cutoff = clock.instant().minus(idleAfter);
    int evicted = 0;
    Iterator<Map.Entry<Scope, Instant>> eldestFirst = entries.entrySet().iterator();
    while (eldestFirst.hasNext()) {
      Map.Entry<Scope, Instant> next = eldestFirst.next();
      if (next.getValue().isAfter(cutoff)) {
        break; // access order: every later entry was used more recently
      }
      eldestFirst.remove();
      markEvicted(next.getKey());
      evicted++;
    }
    return evicted;
  }

  private void markEvicted(Scope scope) {
    if (!scope.keyed()) {
      return; // queue (process-local name, M7) and actor rows live for good
    }
    pending.add(scope.name());
    if (pending.size() > maxEntries) {
      pending.remove(pending.iterator().next());
    }
  }

  /**
   * Hands the evicted keyed scope names to {@code drain} and forgets them, but for the ones it
   * returns; returns how many it handed. With nothing pending it does not call {@code drain}. If
   * {@code drain} throws, the names stay pending (unless registered again meanwhile) and the
   * exception propagates.
   */
  public int drainEvicted(Drain drain) throws Exception {
    List<String> names;
    synchronized (this) {
      if (pending.isEmpty()) {
        return 0;
      }
      names = List.copyOf(pending);
      pending.clear();
    }
    List<String> keep;
    try {
      keep = drain.reclaim(names);
    } catch (Exception | Error e) {
      restore(names);
      throw e;
    }
    restore(keep);
    return names.size();
  }

  private synchronized void restore(List<String> names) {
    for (String name : names) {
      if (entries.keySet().stream().noneMatch(s -> s.keyed() && s.name().equals(name))) {
        pending.add(name);
      }
    }
    while (pending.size() > maxEntries) {
      pending.remove(pending.iterator().next());
    }
  }

  /** Whether a scope of that registry name ({@link Scope#registryName()}) is registered. */
  public synchronized boolean contains(String registryName) {
    return entries.keySet().stream().anyMatch(s -> s.registryName().equals(registryName));
  }

  /** The registry names of the registered scopes, least recently used first. */
  public synchronized List<String> registryNames() {
    List<String> names = new ArrayList<>(entries.size());
    entries.keySet().forEach(s -> names.add(s.registryName()));
    return names;
  }

  /** The evicted keyed scope names not drained yet, oldest first. */
  public synchronized List<String> pendingEvictions() {
    return new ArrayList<>(pending);
  }

  /** How many scopes are registered; never more than {@code maxEntries}. */
  public synchronized int size() {
    return entries.size();
  }

  @Override
  public String toString() {
    return "ReservationRegistry{max=" + maxEntries + ", idleAfter=" + idleAfter + "}";
  }
}
