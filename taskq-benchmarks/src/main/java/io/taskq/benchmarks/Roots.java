package io.taskq.benchmarks;

import io.taskq.SchemaName;
import io.taskq.TaskQ;
import io.taskq.TaskQConfig;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import javax.sql.DataSource;

/** The benchmarks reach TaskQ through its public root only (K2): producer-only roots. */
final class Roots {
  private Roots() {}

  /** The settings of {@code schema}, else the knob catalog's defaults. */
  static TaskQConfig config(SchemaName schema) {
    return TaskQConfig.builder().schemaName(schema).build();
  }

  /** A producer-only root of {@code schema} on {@code dataSource}: jobs, feed, migrations. */
  static TaskQ producer(DataSource dataSource, SchemaName schema) {
    return TaskQ.producer(dataSource).config(config(schema)).build();
  }

  /**
   * {@link #producer}, with the feed's visibility delay set, and the event writer's statement
   * timeout half of it (the configuration requires it below the delay; this root writes no events).
   */
  static TaskQ producer(DataSource dataSource, SchemaName schema, Duration visibilityDelay) {
    return TaskQ.producer(dataSource)
        .config(
            TaskQConfig.builder()
                .schemaName(schema)
                .reclaimEventVisibilityDelay(visibilityDelay)
                .eventWriterStatementTimeout(visibilityDelay.dividedBy(2))
                .build())
        .build();
  }

  /** Applies the schema's pending migrations through the root's operation (A7). */
  static void migrate(DataSource dataSource, SchemaName schema) {
    try (TaskQ root = producer(dataSource, schema)) {
      root.migrations().apply();
    }
  }

  /**
   * The schema's reclaim-feed NOTIFY channel, {@code taskq_events_{tag}}, the tag the first ten hex
   * digits of SHA-224 of the schema name (the wire contract of {@code docs/architecture.md}).
   */
  static String eventsChannel(SchemaName schema) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-224")
              .digest(schema.value().getBytes(StandardCharsets.UTF_8));
      return "taskq_events_" + HexFormat.of().formatHex(digest).substring(0, 10);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-224 is missing", e);
    }
  }
}
