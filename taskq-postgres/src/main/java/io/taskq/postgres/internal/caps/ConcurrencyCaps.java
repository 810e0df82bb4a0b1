package io.taskq.postgres.internal.caps;

import io.taskq.Actor;
import io.taskq.core.internal.RedisKeys;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The concurrency caps one worker enforces when it claims (L7): per queue (declared on the TaskQ
 * builder), per actor and per key (declared on each {@link Actor}).
 *
 * <p>A cap is enforced by the number of slot rows of its scope, so every worker must declare the
 * same caps: a worker claims only slots numbered below the cap it knows. An empty set of caps makes
 * the worker claim with the plain statement, as if this class did not exist.
 */
public final class ConcurrencyCaps {
  private static final ConcurrencyCaps NONE = new ConcurrencyCaps(Map.of(), Map.of(), Map.of());

  private final Map<String, Integer> queues;
  private final Map<String, Integer> actors;
  private final Map<String, Integer> perKey;

  private ConcurrencyCaps(
      Map<String, Integer> queues, Map<String, Integer> actors, Map<String, Integer> perKey) {
    this.queues = Map.copyOf(queues);
    this.actors = Map.copyOf(actors);
    this.perKey = Map.copyOf(perKey);
  }

  /** No caps. */
  public static ConcurrencyCaps none() {
    return NONE;
  }

  /**
   * The caps of {@code queueCaps} and of the {@code actors}' declarations.
   *
   * @throws IllegalArgumentException for a bad queue name or cap, or a queue name with the
   *     process-local prefix {@code taskq:global:queue:} (M7)
   */
  public static ConcurrencyCaps of(Map<String, Integer> queueCaps, Collection<Actor<?>> actors) {
    Map<String, Integer> queues = new TreeMap<>();
    queueCaps.forEach(
        (queue, cap) -> {
          Actor.checkName("queue", queue);
          RedisKeys.requireStoreBound(queue);
          queues.put(queue, Actor.checkCap("concurrency cap of queue '" + queue + "'", cap));
        });
    Map<String, Integer> actorCaps = new TreeMap<>();
    Map<String, Integer> keyCaps = new TreeMap<>();
    for (Actor<?> actor : actors) {
      actor.maxConcurrency().ifPresent(cap -> actorCaps.put(actor.name(), cap));
      actor.maxConcurrencyPerKey().ifPresent(cap -> keyCaps.put(actor.name(), cap));
    }
    if (queues.isEmpty() && actorCaps.isEmpty() && keyCaps.isEmpty()) {
      return NONE;
    }
    return new ConcurrencyCaps(queues, actorCaps, keyCaps);
  }

  /** Whether no cap is declared at all. */
  public boolean isEmpty() {
    return queues.isEmpty() && actors.isEmpty() && perKey.isEmpty();
  }

  /** Whether some actor declares a keyed cap (the worker then runs the S10 drain). */
  public boolean hasKeyedCaps() {
    return !perKey.isEmpty();
  }

  /** A scope with the cap this worker enforces on it. */
  public record Capped(Scope scope, int cap) {}

  /**
   * The scopes a job needs one slot of each to run, with their caps, in a stable order (actor, key,
   * queue); empty when nothing caps the job.
   */
  public List<Capped> scopesOf(String queue, String actor, @Nullable String concurrencyKey) {
    List<Capped> scopes = new ArrayList<>(3);
    Integer actorCap = actors.get(actor);
    if (actorCap != null) {
      scopes.add(new Capped(Scope.actor(actor), actorCap));
    }
    Integer keyCap = perKey.get(actor);
    if (concurrencyKey != null && keyCap != null) {
      scopes.add(new Capped(Scope.key(actor, concurrencyKey), keyCap));
    }
    Integer queueCap = queues.get(queue);
    if (queueCap != null) {
      scopes.add(new Capped(Scope.queue(queue), queueCap));
    }
    return scopes;
  }

  /** Capped queues, by name. */
  public Map<String, Integer> queueCaps() {
    return queues;
  }

  /** Capped actors, by name. */
  public Map<String, Integer> actorCaps() {
    return actors;
  }

  /** Keyed caps, by actor name. */
  public Map<String, Integer> keyCaps() {
    return perKey;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof ConcurrencyCaps c
        && queues.equals(c.queues)
        && actors.equals(c.actors)
        && perKey.equals(c.perKey);
  }

  @Override
  public int hashCode() {
    return Objects.hash(queues, actors, perKey);
  }

  @Override
  public String toString() {
    return "ConcurrencyCaps{queues=" + queues + ", actors=" + actors + ", perKey=" + perKey + "}";
  }
}
