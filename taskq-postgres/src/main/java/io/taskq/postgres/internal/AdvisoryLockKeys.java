package io.taskq.postgres.internal;

import io.taskq.core.SchemaName;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Advisory-lock names and their 64-bit keys (M1, M4).
 *
 * <p>A name such as {@code taskq:migrate:{schema}} becomes the {@code bigint} key of {@code
 * pg_advisory_lock} as the first 8 bytes of the SHA-256 of its UTF-8 bytes, read as a big-endian
 * signed long. The rule is stable across releases: two versions of TaskQ on one database must agree
 * on every key.
 *
 * <p>TODO use core io.taskq.core.internal.AdvisoryLockName once merged.
 */
public final class AdvisoryLockKeys {
  private AdvisoryLockKeys() {}

  /** The name {@code taskq:{purpose}:{schema}} of a schema-wide lock. */
  public static String name(String purpose, SchemaName schema) {
    return "taskq:" + purpose + ":" + schema.value();
  }

  /** The keyed {@code unique_for} lock name {@code taskq:unique_for:{schema}:{actor}:{key}}. */
  public static String uniqueForName(SchemaName schema, String actor, String identityKey) {
    return "taskq:unique_for:" + schema.value() + ":" + actor + ":" + identityKey;
  }

  /** The lock key of {@code name}: the first 8 bytes of SHA-256(UTF-8 name), big-endian. */
  public static long key(String name) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(name.getBytes(StandardCharsets.UTF_8));
      return ByteBuffer.wrap(digest, 0, Long.BYTES).getLong();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform provides SHA-256", e);
    }
  }
}
