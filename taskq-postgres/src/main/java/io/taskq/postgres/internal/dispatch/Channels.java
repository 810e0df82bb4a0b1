package io.taskq.postgres.internal.dispatch;

import io.taskq.core.SchemaName;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The NOTIFY channels of a schema (M2): {@code taskq_wake_{tag}} and {@code
 * taskq_worker_{tag}_{worker_id}}, where {@code tag} is the first 10 hex digits of {@code
 * sha224(schema)}. Two schemas in one database therefore never share a channel.
 */
// TODO use core io.taskq.core.internal.NotifyChannels once merged
public final class Channels {
  private Channels() {}

  /** The channel that wakes every worker of the schema: jobs became due. */
  public static String wake(SchemaName schema) {
    return "taskq_wake_" + tag(schema);
  }

  /** The channel addressed to one worker: a job it runs was cancelled. */
  public static String worker(SchemaName schema, String workerId) {
    return "taskq_worker_" + tag(schema) + "_" + workerId;
  }

  static String tag(SchemaName schema) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-224")
              .digest(schema.value().getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest).substring(0, 10);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK lacks SHA-224", e);
    }
  }
}
