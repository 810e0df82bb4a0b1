package io.taskq.postgres.internal;

import java.util.Locale;
import java.util.Map;

/** Writes the few JSON documents TaskQ builds itself (labels), with RFC 8259 string escaping. */
public final class JsonWriter {
  private JsonWriter() {}

  /** A JSON object of string members, in the map's iteration order. */
  public static String object(Map<String, String> members) {
    StringBuilder out = new StringBuilder(2 + members.size() * 16).append('{');
    boolean first = true;
    for (Map.Entry<String, String> e : members.entrySet()) {
      if (!first) {
        out.append(',');
      }
      first = false;
      string(out, e.getKey());
      out.append(':');
      string(out, e.getValue());
    }
    return out.append('}').toString();
  }

  /** Appends {@code s} as a JSON string literal. */
  public static void string(StringBuilder out, String s) {
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
