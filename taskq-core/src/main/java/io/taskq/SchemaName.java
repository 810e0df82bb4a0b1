package io.taskq;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * A validated PostgreSQL schema name, the isolation boundary of a TaskQ deployment (guide §4, M3).
 *
 * <p>Every table, lock name, channel and Redis key of a deployment derives from this value, so it
 * is validated once, here, and only ever reaches SQL through {@link #quoted()}. Odd but legal names
 * ({@code My-Schema}, {@code a b}, {@code user}, non-ASCII names) are accepted; names PostgreSQL
 * would truncate or refuse, and names carrying a double quote, a control character or an unpaired
 * surrogate, are rejected with a message that names the problem.
 *
 * <p>A colon is rejected too, although PostgreSQL would accept it: lock names and Redis keys are
 * colon-separated ({@code taskq:cron:{schema}}, {@code taskq:{schema}:sw:{name}}), and a colon in
 * the schema would let one schema's name spell another's (schema {@code sw:x} locking {@code
 * taskq:cron:sw:x}, the sliding-window lock {@code x} of schema {@code cron}) or the process-local
 * prefix {@code taskq:global:queue:} (M6, M7).
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
   * @param name the schema name, as given
   * @return the schema name
   * @throws IllegalArgumentException naming the problem when the name is empty, longer than 63
   *     UTF-8 bytes, contains a double quote, a colon, a control character or an unpaired
   *     surrogate, or starts with {@code pg_} (in any case)
   */
  public static SchemaName of(String name) {
    String problem = problem(name);
    if (problem != null) {
      throw new IllegalArgumentException(
          "invalid schema name '" + printable(name) + "': " + problem);
    }
    return new SchemaName(name);
  }

  /**
   * {@return why {@code name} is not a valid schema name, or {@code null} when it is}
   *
   * @param name the name to check
   */
  public static @Nullable String problem(String name) {
    if (name.isEmpty()) {
      return "must not be empty";
    }
    int bytes = name.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > MAX_BYTES) {
      return "is " + bytes + " bytes in UTF-8; PostgreSQL allows at most " + MAX_BYTES;
    }
    for (int i = 0; i < name.length(); i++) {
      String problem = characterProblem(name, i);
      if (problem != null) {
        return problem + " (at index " + i + ")";
      }
    }
    if (name.toLowerCase(Locale.ROOT).startsWith("pg_")) {
      return "the pg_ prefix is reserved for PostgreSQL's system schemas";
    }
    return null;
  }

  private static @Nullable String characterProblem(String name, int i) {
    char c = name.charAt(i);
    if (c == '"') {
      return "must not contain a double quote";
    }
    if (c == ':') {
      return "must not contain a colon: lock names and Redis keys use it as their separator";
    }
    if (Character.isISOControl(c)) {
      return "must not contain control character U+" + String.format(Locale.ROOT, "%04X", (int) c);
    }
    if (Character.isSurrogate(c) && !isPairedSurrogate(name, i)) {
      return "must not contain an unpaired surrogate U+"
          + String.format(Locale.ROOT, "%04X", (int) c);
    }
    return null;
  }

  private static boolean isPairedSurrogate(String name, int i) {
    char c = name.charAt(i);
    if (Character.isHighSurrogate(c)) {
      return i + 1 < name.length() && Character.isLowSurrogate(name.charAt(i + 1));
    }
    return i > 0 && Character.isHighSurrogate(name.charAt(i - 1));
  }

  /** {@return the name exactly as given (case and spaces kept)} */
  public String value() {
    return value;
  }

  /**
   * {@return the name as a quoted SQL identifier, safe to splice into a statement: {@code
   * "My-Schema"}}
   */
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
