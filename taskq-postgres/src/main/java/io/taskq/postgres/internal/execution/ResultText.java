package io.taskq.postgres.internal.execution;

/**
 * Makes a handler's encoded result storable as {@code jsonb} (F6): {@code jsonb} refuses the NUL
 * character both raw and as the escape {@code \u0000}, so either becomes the escaped text {@code
 * \\x00}, which decodes to the visible four characters {@code \x00} like every other sanitised
 * handler text. An escaped backslash ({@code \\u0000}) is left alone: it is not a NUL.
 */
final class ResultText {
  private static final String ESCAPED_NUL = "\\\\x00";

  private ResultText() {}

  static String sanitize(String json) {
    if (json.indexOf('\0') < 0 && !json.contains("\\u0000")) {
      return json;
    }
    StringBuilder out = new StringBuilder(json.length() + 8);
    int i = 0;
    while (i < json.length()) {
      char c = json.charAt(i);
      if (c == '\0') {
        out.append(ESCAPED_NUL);
        i++;
      } else if (c == '\\' && json.startsWith("u0000", i + 1)) {
        out.append(ESCAPED_NUL);
        i += 6;
      } else if (c == '\\' && i + 1 < json.length()) {
        out.append(c).append(json.charAt(i + 1));
        i += 2;
      } else {
        out.append(c);
        i++;
      }
    }
    return out.toString();
  }
}
