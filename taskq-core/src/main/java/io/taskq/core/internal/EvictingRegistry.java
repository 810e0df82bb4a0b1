package io.taskq.core.internal;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The mechanism of a worker's bounded registries (S10), the keyed rate limits and the reservation
 * scopes: at most {@code maxEntries} keys in least-recently-used order, each with a value; a new
 * key beyond the cap evicts the least recently used one, and {@link #evictIdle()} evicts the keys
 * unused for {@code idleAfter}.
 *
 * <p>A key may name rows in a store ({@code storeName} returns that name, else null): when such a
 * key is evicted its store name waits in a pending set until {@link #drainEvicted(Reclaim)} hands
 * it to the worker's reclaim drain. A key registered again before the drain leaves the pending set.
 * The pending set is capped at {@code maxPending} ({@code maxEntries} unless given), oldest dropped
 * first. With nothing pending the drain is not called. Each store name belongs to one key at a
 * time.
 *
 * <p>Thread-safe; the drain runs outside the registry's lock. The callers validate the bounds and
 * say what they mean.
 *
 * @param <K> the key
 * @param <V> the value kept with each key
 */
public final class EvictingRegistry<K, V> {
  /** Reclaims the rows of evicted store names. */
  @FunctionalInterface
  public interface Reclaim<E extends Exception> {
    /** Reclaims {@code names}; returns the ones to keep pending for the next drain. */
    List<String> reclaim(List<String> names) throws E;
  }

  private final int maxEntries;
  private final int maxPending;
  private final Duration idleAfter;
  private final InstantSource clock;
  private final Function<K, @Nullable String> storeName;
  private final LinkedHashMap<K, Entry<V>> entries = new LinkedHashMap<>(16, 0.75f, true);
  private final Map<String, K> byStoreName = new HashMap<>();
  private final LinkedHashSet<String> pending = new LinkedHashSet<>();

  public EvictingRegistry(
      int maxEntries,
      Duration idleAfter,
      InstantSource clock,
      Function<K, @Nullable String> storeName) {
    this(maxEntries, maxEntries, idleAfter, clock, storeName);
  }

  public EvictingRegistry(
      int maxEntries,
      int maxPending,
      Duration idleAfter,
      InstantSource clock,
      Function<K, @Nullable String> storeName) {
    this.maxEntries = maxEntries;
    this.maxPending = maxPending;
    this.idleAfter = idleAfter;
    this.clock = clock;
    this.storeName = storeName;
  }

  /**
   * Registers {@code key} (its value made by {@code create}) or touches it; returns its value.
   * Registering a key beyond the cap evicts the least recently used one.
   */
  public synchronized V touch(K key, Function<? super K, ? extends V> create) {
    Instant now = clock.instant();
    Entry<V> entry = entries.get(key);
    if (entry == null) {
      entry = new Entry<>(create.apply(key));
      entries.put(key, entry);
      String name = storeName.apply(key);
      if (name != null) {
        byStoreName.put(name, key);
        pending.remove(name);
      }
      Iterator<K> eldestFirst = entries.keySet().iterator();
      while (entries.size() > maxEntries) {
        K eldest = eldestFirst.next();
        eldestFirst.remove();
        markEvicted(eldest);
      }
    }
    entry.lastUsed = now;
    return entry.value;
  }

  /** Evicts every key unused for at least {@code idleAfter}; returns how many. */
  public synchronized int evictIdle() {
    Instant cutoff = clock.instant().minus(idleAfter);
    int evicted = 0;
    Iterator<Map.Entry<K, Entry<V>>> eldestFirst = entries.entrySet().iterator();
    while (eldestFirst.hasNext()) {
      Map.Entry<K, Entry<V>> next = eldestFirst.next();
      if (next.getValue().lastUsed.isAfter(cutoff)) {
        break; // access order: every later entry was used more recently
      }
      eldestFirst.remove();
      markEvicted(next.getKey());
      evicted++;
    }
    return evicted;
  }

  private void markEvicted(K key) {
    String name = storeName.apply(key);
    if (name == null) {
      return;
    }
    byStoreName.remove(name);
    addPending(name);
  }

  private void addPending(String name) {
    pending.add(name);
    if (pending.size() > maxPending) {
      pending.remove(pending.iterator().next());
    }
  }

  /**
   * Hands the pending store names to {@code reclaim} and forgets them, but for the ones it returns;
   * returns how many it handed. With nothing pending it does not call {@code reclaim}. If {@code
   * reclaim} throws, the names stay pending (unless registered again meanwhile) and the exception
   * propagates.
   */
  public <E extends Exception> int drainEvicted(Reclaim<E> reclaim) throws E {
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
      keep = reclaim.reclaim(names);
    } catch (Throwable t) {
      restore(names);
      throw t;
    }
    restore(keep);
    return names.size();
  }

  private synchronized void restore(List<String> names) {
    for (String name : names) {
      if (!byStoreName.containsKey(name)) {
        addPending(name);
      }
    }
  }

  /** The pending store names, oldest first. */
  public synchronized List<String> pendingEvictions() {
    return new ArrayList<>(pending);
  }

  /** The registered keys, least recently used first. */
  public synchronized List<K> keys() {
    return new ArrayList<>(entries.keySet());
  }

  /** Whether {@code key} is registered now. */
  public synchronized boolean contains(K key) {
    return entries.containsKey(key);
  }

  /** How many keys are registered now; never more than {@code maxEntries}. */
  public synchronized int size() {
    return entries.size();
  }

  private static final class Entry<V> {
    final V value;
    Instant lastUsed = Instant.EPOCH;

    Entry(V value) {
      this.value = value;
    }
  }
}
