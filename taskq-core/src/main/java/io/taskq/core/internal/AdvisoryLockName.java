package io.taskq.core.internal;

import io.taskq.SchemaName;
import java.nio.ByteBuffer;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * A PostgreSQL advisory lock: its schema-qualified name and the 64-bit key the server locks (M1,
 * M4, D8).
 *
 * <p>Advisory locks live in one namespace per <em>database</em>, so every name carries the schema:
 * two TaskQ schemas in one database get their own leader election, cron, prune, archive-expiry and
 * migration locks (guide §4). The names are:
 *
 * <ul>
 *   <li>{@code taskq:{purpose}:{schema}} for the {@link Purpose}s, e.g. {@code
 *       taskq:maintenance_leader:taskq};
 *   <li>{@code taskq:{schema}:sw:{name}} for the sliding-window fallback of a rate limit;
 *   <li>{@code taskq:unique_for:{schema}:{actor}:{identity_key}} for enqueue single-flight (L6).
 * </ul>
 *
 * <p>{@code {schema}} is {@link SchemaName#value()}, unquoted.
 *
 * <h2>Name to key: a stable contract</h2>
 *
 * The key is the first 8 bytes of the SHA-256 digest of the name's UTF-8 bytes, read big-endian as
 * a signed (two's complement) {@code long}. In SQL the same key is:
 *
 * <pre>{@code
 * ('x' || substr(encode(sha256(convert_to(name, 'UTF8')), 'hex'), 1, 16))::bit(64)::bigint
 * }</pre>
 *
 * (see {@link #SQL_KEY_EXPRESSION}), so an operator can find a lock in {@code pg_locks} (where a
 * bigint key shows as {@code classid} = high 32 bits, {@code objid} = low 32 bits, {@code objsubid}
 * = 1). This mapping is part of the compatibility contract: changing it is a lock rename, with the
 * split-leader window of guide §5, so it must never change between releases.
 */
public final class AdvisoryLockName {
  /**
   * The SQL expression computing a name's key, with {@code %s} where the name (a bind parameter or
   * a text expression) goes; format it with {@link String#format}.
   */
  public static final String SQL_KEY_EXPRESSION =
      "('x' || substr(encode(sha256(convert_to(%s, 'UTF8')), 'hex'), 1, 16))::bit(64)::bigint";

  /** The per-schema singleton locks of M1. */
  public enum Purpose {
    /** Leader election: the session lock the maintenance leader holds (D8). */
    MAINTENANCE_LEADER,
    /** Serialises cron ticks (F5). */
    CRON,
    /** The daily prune (S11). */
    PRUNE,
    /** The daily archive expiry (S11). */
    ARCHIVE_EXPIRY,
    /** Schema migrations (U1). */
    MIGRATE;

    /** The purpose as it appears in the lock name, e.g. {@code maintenance_leader}. */
    public String value() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private final String name;
  private final long key;

  private AdvisoryLockName(String name) {
    this.name = RedisKeys.requireStoreBound(name);
    this.key = keyOf(name);
  }

  /** {@code taskq:{purpose}:{schema}}, e.g. {@code taskq:cron:taskq}. */
  public static AdvisoryLockName of(Purpose purpose, SchemaName schema) {
    return new AdvisoryLockName("taskq:" + purpose.value() + ":" + schema.value());
  }

  /**
   * {@code taskq:{schema}:sw:{name}}, the Postgres fallback lock of a sliding-window rate limit;
   * the same text as its Redis key {@link RedisKeys#slidingWindow(String)}.
   *
   * @throws IllegalArgumentException when {@code name} is empty or contains a NUL
   */
  public static AdvisoryLockName slidingWindow(SchemaName schema, String name) {
    return new AdvisoryLockName(RedisKeys.of(schema).slidingWindow(name));
  }

  /**
   * {@code taskq:unique_for:{schema}:{actor}:{identity_key}}, the enqueue single-flight lock (L6).
   *
   * @throws IllegalArgumentException when {@code actor} is empty, or either value contains a NUL
   */
  public static AdvisoryLockName uniqueFor(SchemaName schema, String actor, String identityKey) {
    RedisKeys.requireNonEmpty(actor, "unique_for actor");
    TextBoundary.requireNoNul(identityKey, "unique_for identity key");
    return new AdvisoryLockName(
        "taskq:unique_for:" + schema.value() + ":" + actor + ":" + identityKey);
  }

  /**
   * The advisory-lock key of {@code name}: the first 8 bytes of SHA-256(UTF-8 name), big-endian,
   * signed. Stable across releases (see the class comment for the SQL twin).
   */
  public static long keyOf(String name) {
    return ByteBuffer.wrap(Digests.sha256(name)).getLong();
  }

  /** The lock's name, e.g. {@code taskq:maintenance_leader:taskq}. */
  public String name() {
    return name;
  }

  /** The bigint passed to {@code pg_advisory_lock} and friends. */
  public long key() {
    return key;
  }

  @Override
  public boolean equals(@Nullable Object other) {
    return other instanceof AdvisoryLockName that && that.name.equals(name);
  }

  @Override
  public int hashCode() {
    return name.hashCode();
  }

  @Override
  public String toString() {
    return name + " (key " + key + ")";
  }
}
