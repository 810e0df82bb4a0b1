package io.taskq.cli;

import java.time.Duration;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Writes maps, lists, strings, numbers, booleans, instants and nulls as JSON (for --json). */
final class Json {
  private Json() {}

  static String write(@Nullable Object value) {
    StringBuilder out = new StringBuilder();
    append(out, value);
    return out.toString();
  }

  private static void append(StringBuilder out, @Nullable Object value) {
    if (value == null) {
      out.append("null");
    } else if (value instanceof Map<?, ?> map) {
      appendMap(out, map);
    } else if (value instanceof Collection<?> list) {
      out.append('[');
      boolean first = true;
      for (Object item : list) {
        out.append(first ? "" : ",");
        first = false;
        append(out, item);
      }
      out.append(']');
    } else if (value instanceof Number || value instanceof Boolean) {
      out.append(value);
    } else if (value instanceof Duration d) {
      out.append(d.toMillis());
    } else {
      string(out, value.toString());
    }
  }

  private static void appendMap(StringBuilder out, Map<?, ?> map) {
    out.append('{');
    boolean first = true;
    for (Map.Entry<?, ?> e : map.entrySet()) {
      out.append(first ? "" : ",");
      first = false;
      string(out, String.valueOf(e.getKey()));
      out.append(':');
      append(out, e.getValue());
    }
    out.append('}');
  }

  private static void string(StringBuilder out, String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
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
    out.append('"');
  }
}
