package io.taskq.core;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * A validated PostgreSQL schema name, the isolation boundary of a TaskQ deployment (guide §4, M3).
 *
 * <p>Every table, lock name, channel and Redis key of a deployment derives from this value, so it
 * is validated once, here, and only ever reaches SQL through {@link #quoted()}. Odd but legal names
 * ({@code My-Schema}, {@code a b}, {@code user}) are accepted; names PostgreSQL would truncate or
 * refuse, and names carrying a double quote or a control character, are rejected with a message
 * that names the problem.
 */
public final class SchemaName {
  /** PostgreSQL's NAMEDATALEN - 1: longer identifiers are silently truncated by the server. */
  public static final int MAX_BYTES = 63;

  private final String value;

  private SchemaName(String value) {
    this.value = value;
  }

  /**
   * Validates {@code name} and returns it as a schema name.
   *
   * @throws IllegalArgumentException naming the problem when the name is empty, longer than 63
   *     UTF-8 bytes, contains a double quote or a control character, or starts with {@code pg_}
   */
  public static SchemaName of(String name) {
    String problem = problem(name);
    if (problem != null) {
      throw new IllegalArgumentException(
          "invalid schema name '" + printable(name) + "': " + problem);
    }
    return new SchemaName(name);
  }

  /** Returns why {@code name} is not a valid schema name, or {@code null} when it is. */
  public static @Nullable String problem(String name) {
    if (name.isEmpty()) {
      return "must not be empty";
    }
    int bytes = name.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > MAX_BYTES) {
      return "is " + bytes + " bytes in UTF-8; PostgreSQL allows at most " + MAX_BYTES;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c == '"') {
        return "must not contain a double quote (at index " + i + ")";
      }
      if (Character.isISOControl(c)) {
        return "must not contain control character U+"
            + String.format(Locale.ROOT, "%04X", (int) c)
            + " (at index "
            + i
            + ")";
      }
    }
    if (name.toLowerCase(Locale.ROOT).startsWith("pg_")) {
      return "the pg_ prefix is reserved for PostgreSQL's system schemas";
    }
    return null;
  }

  /** The name exactly as given (case and spaces kept). */
  public String value() {
    return value;
  }

  /** The name as a quoted SQL identifier, safe to splice into a statement: {@code "My-Schema"}. */
  public String quoted() {
    return '"' + value + '"';
  }

  private static String printable(String name) {
    StringBuilder out = new StringBuilder(Math.min(name.length(), 80));
    for (int i = 0; i < name.length() && i < 80; i++) {
      char c = name.charAt(i);
      out.append(Character.isISOControl(c) ? String.format(Locale.ROOT, "\\u%04x", (int) c) : c);
    }
    return name.length() > 80 ? out + "..." : out.toString();
  }

  @Override
  public boolean equals(@Nullable Object other) {
    return other instanceof SchemaName that && that.value.equals(value);
  }

  @Override
  public int hashCode() {
    return value.hashCode();
  }

  @Override
  public String toString() {
    return value;
  }
}
