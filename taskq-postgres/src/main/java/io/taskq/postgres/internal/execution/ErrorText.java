package io.taskq.postgres.internal.execution;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.jspecify.annotations.Nullable;

/**
 * Makes text that handler code produced safe to store (F6): NUL (U+0000), which PostgreSQL text
 * cannot hold, becomes the visible four characters {@code \x00}, and length is bounded so a huge
 * message or a deep stack cannot bloat the jobs table.
 */
// TODO use core io.taskq.core.internal.TextBoundary once merged
public final class ErrorText {
  /** Longest stored error message, in characters. */
  public static final int MAX_MESSAGE = 4_000;

  /** Longest stored stack trace, in characters. */
  public static final int MAX_STACK = 32_000;

  private static final String NUL_ESCAPE = "\\x00";

  private ErrorText() {}

  /** The error's message, sanitised; null when it has none. */
  static @Nullable String message(Throwable error) {
    String message = error.getMessage();
    return message == null ? null : sanitize(message, MAX_MESSAGE);
  }

  /** The error's stack trace with its causes, as {@code printStackTrace} writes it, sanitised. */
  static String stackTrace(Throwable error) {
    StringWriter out = new StringWriter();
    try (PrintWriter writer = new PrintWriter(out)) {
      error.printStackTrace(writer);
    }
    return sanitize(out.toString(), MAX_STACK);
  }

  /** Replaces NUL with {@code \x00}, then cuts to {@code maxChars}, marking the cut. */
  public static String sanitize(String text, int maxChars) {
    String clean = text.indexOf('\0') < 0 ? text : text.replace("\0", NUL_ESCAPE);
    if (clean.length() <= maxChars) {
      return clean;
    }
    String marker = " ... [" + (clean.length() - maxChars) + " more characters cut]";
    int cut = Math.max(0, maxChars - marker.length());
    if (cut > 0 && Character.isHighSurrogate(clean.charAt(cut - 1))) {
      cut--;
    }
    return clean.substring(0, cut) + marker;
  }
}
