package io.taskq.postgres.internal;

import io.taskq.core.internal.TextBoundary;
import org.jspecify.annotations.Nullable;

/**
 * The F6 boundary for caller-supplied text: NUL (U+0000) is rejected before it reaches the database
 * (PostgreSQL {@code text} and {@code jsonb} cannot store it, and a silent rewrite would change the
 * caller's data); names are bounded in length.
 */
public final class CallerText {
  private CallerText() {}

  /**
   * Returns {@code value} when it holds no NUL.
   *
   * @throws IllegalArgumentException naming {@code field} and the index of the first NUL
   */
  public static String requireNoNul(String field, String value) {
    return TextBoundary.requireNoNul(value, field);
  }

  /**
   * Checks a name such as an actor or a queue: 1 to {@code maxChars} characters, no NUL.
   *
   * @throws IllegalArgumentException naming the field, the value's length and the allowed range
   */
  public static String requireName(String field, String value, int maxChars) {
    if (value.isEmpty() || value.length() > maxChars) {
      throw new IllegalArgumentException(
          field + " must be 1 to " + maxChars + " characters, was " + value.length());
    }
    return requireNoNul(field, value);
  }

  /**
   * Who asked for an operator action, as the audit trail records it (A3): {@code by} stripped, or
   * {@code null} when it is null or blank (no one named).
   *
   * @throws IllegalArgumentException when {@code by} holds a NUL
   */
  public static @Nullable String operator(@Nullable String by) {
    return by == null || by.isBlank() ? null : requireNoNul("operator name", by.strip());
  }

  /** The number of bytes {@code text} takes in UTF-8, without encoding it. */
  public static long utf8Length(String text) {
    long bytes = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < 0x80) {
        bytes += 1;
      } else if (c < 0x800) {
        bytes += 2;
      } else if (Character.isHighSurrogate(c)
          && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        bytes += 4;
        i++;
      } else {
        bytes += 3;
      }
    }
    return bytes;
  }
}
