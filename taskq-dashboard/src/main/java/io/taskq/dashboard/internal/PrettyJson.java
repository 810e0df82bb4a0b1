package io.taskq.dashboard.internal;

/**
 * Indents JSON text for reading (two spaces a level). It walks the text once, tracking only whether
 * it is inside a string, so it never fails: text that is not JSON comes out re-spaced but whole.
 * The result is text for a template to escape, never markup.
 */
public final class PrettyJson {
  private PrettyJson() {}

  /** {@code json} indented. */
  public static String indent(String json) {
    StringBuilder out = new StringBuilder(json.length() + json.length() / 4);
    int depth = 0;
    for (int i = 0; i < json.length(); i++) {
      if (json.charAt(i) == '"') {
        i = copyString(json, i, out);
      } else {
        depth = structural(json, i, depth, out);
      }
    }
    return out.toString();
  }

  /**
   * Copies the string that opens at {@code start} as it is, escapes included; returns the index of
   * its closing quote, or the end of the text when it has none.
   */
  private static int copyString(String json, int start, StringBuilder out) {
    out.append('"');
    int i = start + 1;
    for (; i < json.length(); i++) {
      char c = json.charAt(i);
      out.append(c);
      if (c == '\\' && i + 1 < json.length()) {
        out.append(json.charAt(++i));
      } else if (c == '"') {
        return i;
      }
    }
    return i;
  }

  /** Writes the character at {@code i}, outside any string; returns the depth after it. */
  private static int structural(String json, int i, int depth, StringBuilder out) {
    char c = json.charAt(i);
    return switch (c) {
      case '{', '[' -> open(json, i, depth, out);
      case '}', ']' -> close(c, depth, out);
      case ',' -> {
        out.append(c);
        newline(out, depth);
        yield depth;
      }
      case ':' -> {
        out.append(": ");
        yield depth;
      }
      case ' ', '\n', '\r', '\t' -> depth;
      default -> {
        out.append(c);
        yield depth;
      }
    };
  }

  private static int open(String json, int i, int depth, StringBuilder out) {
    out.append(json.charAt(i));
    if (!closesNext(json, i)) {
      newline(out, depth + 1);
    }
    return depth + 1;
  }

  private static int close(char c, int depth, StringBuilder out) {
    int outer = Math.max(0, depth - 1);
    if (!opensBefore(out)) {
      newline(out, outer);
    }
    out.append(c);
    return outer;
  }

  private static boolean closesNext(String json, int i) {
    int j = i + 1;
    while (j < json.length() && Character.isWhitespace(json.charAt(j))) {
      j++;
    }
    return j < json.length() && (json.charAt(j) == '}' || json.charAt(j) == ']');
  }

  private static boolean opensBefore(StringBuilder out) {
    char last = out.length() == 0 ? ' ' : out.charAt(out.length() - 1);
    return last == '{' || last == '[';
  }

  private static void newline(StringBuilder out, int depth) {
    out.append('\n');
    out.append("  ".repeat(depth));
  }
}
