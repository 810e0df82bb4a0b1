package io.taskq.core.internal;

import java.util.Locale;

/**
 * JSON string literals for the documents TaskQ writes itself (labels, progress payloads): RFC 8259
 * escaping of the quote, the backslash and every control character.
 */
public final class JsonStrings {
  private JsonStrings() {}

  /** Appends {@code text} to {@code out} as a JSON string literal, quotes included. */
  public static StringBuilder append(StringBuilder out, String text) {
    out.append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"');
  }

  /** {@code text} as a JSON string literal, quotes included. */
  public static String of(String text) {
    return append(new StringBuilder(text.length() + 2), text).toString();
  }
}
