package io.taskq.testing;

import io.taskq.SchemaName;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The named statements of {@code testing.sql} on one schema: each starts at a {@code -- name: x}
 * line; the quoted schema is the only text substituted into them (D7).
 */
final class KitStatements {
  private static final String RESOURCE = "io/taskq/testing/testing.sql";
  private static final String MARKER = "-- name: ";

  private final String schema;
  private final Map<String, String> statements;

  private KitStatements(String schema, Map<String, String> statements) {
    this.schema = schema;
    this.statements = statements;
  }

  static KitStatements load(SchemaName schema) {
    Map<String, String> statements = new HashMap<>();
    @Nullable String name = null;
    StringBuilder body = new StringBuilder();
    for (String line : read().split("\n", -1)) {
      if (line.startsWith(MARKER)) {
        put(statements, name, body, schema);
        name = line.substring(MARKER.length()).strip();
        body.setLength(0);
      } else if (!line.startsWith("--")) {
        body.append(line).append('\n');
      }
    }
    put(statements, name, body, schema);
    return new KitStatements(schema.value(), Map.copyOf(statements));
  }

  private static void put(
      Map<String, String> statements,
      @Nullable String name,
      StringBuilder body,
      SchemaName schema) {
    if (name != null) {
      statements.put(name, body.toString().strip().replace("{schema}", schema.quoted()));
    }
  }

  private static String read() {
    try (InputStream in = KitStatements.class.getClassLoader().getResourceAsStream(RESOURCE)) {
      return new String(
          Objects.requireNonNull(in, RESOURCE).readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  String get(String name) {
    return Objects.requireNonNull(statements.get(name), name);
  }

  String schema() {
    return schema;
  }
}
