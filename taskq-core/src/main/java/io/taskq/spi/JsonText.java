package io.taskq.spi;

import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * A tiny JSON writer for the readiness view: objects, arrays, strings, booleans, integers. Strings
 * are escaped per RFC 8259 (quote, backslash, every control character, and U+2028/U+2029 so the
 * text is also safe inside JavaScript). Commas are placed automatically.
 */
final class JsonText {
  private final StringBuilder out = new StringBuilder();
  private boolean needsComma;

  JsonText open(char bracket) {
    separate();
    out.append(bracket);
    needsComma = false;
    return this;
  }

  JsonText close(char bracket) {
    out.append(bracket);
    needsComma = true;
    return this;
  }

  JsonText key(String key) {
    string(key);
    out.append(':');
    needsComma = false;
    return this;
  }

  JsonText string(String value) {
    separate();
    out.append('"');
    for (int i = 0; i < value.length(); i++) {
      escape(value.charAt(i));
    }
    out.append('"');
    needsComma = true;
    return this;
  }

  JsonText stringOrNull(@Nullable String value) {
    return value == null ? literal("null") : string(value);
  }

  JsonText bool(boolean value) {
    return literal(Boolean.toString(value));
  }

  JsonText numberOrNull(@Nullable Integer value) {
    return literal(value == null ? "null" : value.toString());
  }

  private JsonText literal(String text) {
    separate();
    out.append(text);
    needsComma = true;
    return this;
  }

  private void separate() {
    if (needsComma) {
      out.append(',');
    }
  }

  private void escape(char c) {
    switch (c) {
      case '"' -> out.append("\\\"");
      case '\\' -> out.append("\\\\");
      case '\n' -> out.append("\\n");
      case '\r' -> out.append("\\r");
      case '\t' -> out.append("\\t");
      case '\b' -> out.append("\\b");
      case '\f' -> out.append("\\f");
      default -> {
        if (c < 0x20 || c == '\u2028' || c == '\u2029' || Character.isSurrogate(c)) {
          out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
        } else {
          out.append(c);
        }
      }
    }
  }

  @Override
  public String toString() {
    return out.toString();
  }
}
