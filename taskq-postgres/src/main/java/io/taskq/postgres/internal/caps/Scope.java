package io.taskq.postgres.internal.caps;

import io.taskq.core.internal.RedisKeys;
import java.util.Comparator;
import java.util.Objects;

/**
 * One capped scope: the {@code (scope_kind, scope_name)} of its {@code reservation_slots} rows.
 *
 * <p>A queue scope is named by the queue, an actor scope by the actor, a key scope by {@code
 * {actor}:{key}} (the same key under two actors counts separately, as each actor declares its own
 * keyed cap). Inside a worker's {@link ReservationRegistry} a queue scope goes by its process-local
 * name {@code taskq:global:queue:{queue}} (M7); {@link #name()} is what the database stores.
 *
 * @param kind {@code queue}, {@code actor} or {@code key}, as {@code reservation_slots.scope_kind}
 * @param name {@code reservation_slots.scope_name}
 */
public record Scope(Kind kind, String name) implements Comparable<Scope> {
  /** The scope kinds, in the order a claim acquires them. */
  public enum Kind {
    ACTOR("actor"),
    KEY("key"),
    QUEUE("queue");

    private final String dbValue;

    Kind(String dbValue) {
      this.dbValue = dbValue;
    }

    /** The {@code reservation_slots.scope_kind} value. */
    public String dbValue() {
      return dbValue;
    }
  }

  private static final Comparator<Scope> ORDER =
      Comparator.comparing((Scope s) -> s.kind.dbValue()).thenComparing(Scope::name);

  public Scope {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(name, "name");
    if (kind != Kind.KEY) {
      // M7: a queue or actor name that looks process-local is refused where caps are declared.
      RedisKeys.requireStoreBound(name);
    }
  }

  /** The queue cap scope of {@code queue}. */
  public static Scope queue(String queue) {
    return new Scope(Kind.QUEUE, queue);
  }

  /** The actor cap scope of {@code actor}. */
  public static Scope actor(String actor) {
    return new Scope(Kind.ACTOR, actor);
  }

  /** The keyed cap scope of {@code actor}'s jobs with concurrency key {@code key}. */
  public static Scope key(String actor, String key) {
    return new Scope(Kind.KEY, actor + ":" + key);
  }

  /** Whether the scope's rows are marked keyed (S9 and S10 delete the idle ones). */
  public boolean keyed() {
    return kind == Kind.KEY;
  }

  /**
   * The scope's name in a worker's registry: a queue scope's is process-local, {@code
   * taskq:global:queue:{queue}} (M7), and never sent to a store; the others are their kind and
   * name.
   */
  public String registryName() {
    return kind == Kind.QUEUE ? RedisKeys.processLocalQueueCap(name) : kind.dbValue() + ":" + name;
  }

  /** By kind, then name: a stable order for the arrays a claim sends. */
  @Override
  public int compareTo(Scope other) {
    return ORDER.compare(this, other);
  }
}
