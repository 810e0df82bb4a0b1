package io.taskq.postgres.internal;

import io.taskq.core.SchemaName;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The schema's NOTIFY channels (M2): {@code taskq_wake_{tag}} where {@code tag} is the first 10 hex
 * digits of SHA-224 of the schema name's UTF-8 bytes. Schema {@code taskq} gives {@code
 * taskq_wake_124a200651}. The tag keeps channel names short (63-byte limit) and lets two schemas in
 * one database never hear each other's wake-ups (M6).
 *
 * <p>TODO use core io.taskq.core.internal.NotifyChannels once merged.
 */
public final class WakeChannel {
  private WakeChannel() {}

  /** The wake channel of {@code schema}. */
  public static String of(SchemaName schema) {
    return "taskq_wake_" + tag(schema);
  }

  /** The first 10 hex digits of SHA-224(schema name). */
  public static String tag(SchemaName schema) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-224")
              .digest(schema.value().getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest).substring(0, 10);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform provides SHA-224", e);
    }
  }
}
