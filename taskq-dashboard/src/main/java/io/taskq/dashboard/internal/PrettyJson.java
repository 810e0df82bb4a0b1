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
    boolean inString = false;
    for (int i = 0; i < json.length(); i++) {
      char c = json.charAt(i);
      if (inString) {
        out.append(c);
        if (c == '\\' && i + 1 < json.length()) {
          out.append(json.charAt(++i));
        } else if (c == '"') {
          inString = false;
        }
        continue;
      }
      switch (c) {
        case '"' -> {
          inString = true;
          out.append(c);
        }
        case '{', '[' -> {
          out.append(c);
          depth++;
          if (!closesNext(json, i)) {
            newline(out, depth);
          }
        }
        case '}', ']' -> {
          depth = Math.max(0, depth - 1);
          if (!opensBefore(out)) {
            newline(out, depth);
          }
          out.append(c);
        }
        case ',' -> {
          out.append(c);
          newline(out, depth);
        }
        case ':' -> out.append(": ");
        case ' ', '\n', '\r', '\t' -> {}
        default -> out.append(c);
      }
    }
    return out.toString();
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
