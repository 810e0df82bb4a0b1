package io.taskq.postgres.internal;

import io.taskq.core.internal.JsonStrings;
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
      JsonStrings.append(out, e.getKey());
      out.append(':');
      JsonStrings.append(out, e.getValue());
    }
    return out.append('}').toString();
  }
}
