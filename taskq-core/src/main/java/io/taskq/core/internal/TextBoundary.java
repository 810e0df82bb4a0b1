package io.taskq.core.internal;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.jspecify.annotations.Nullable;

/**
 * Where text crosses into PostgreSQL {@code text} columns, and what happens to a NUL (F6).
 *
 * <p>PostgreSQL text cannot hold U+0000, and a NUL reaching the driver fails the whole statement
 * (SQLSTATE 22021), so the library splits the problem by where the text comes from (guide §6):
 *
 * <ul>
 *   <li><b>Derived text</b> (a handler exception's message or stack trace, a cron schedule's {@code
 *       last_fire_error}) is <em>sanitised</em>: each NUL becomes the four visible characters
 *       {@code \x00}. Rejecting it would strand the job the text describes: its terminal write
 *       would fail and lease reclaim would re-run the same failing handler forever.
 *   <li><b>Caller-supplied values</b> (payloads, metadata, labels, keyed names, queue and actor
 *       names) are <em>rejected</em> with {@link IllegalArgumentException} at the API boundary. A
 *       NUL there is a permanent data defect; surfacing it as a driver error would misclassify it
 *       as a transient failure that retries forever.
 * </ul>
 *
 * <p>Derived text is also bounded ({@link #MAX_MESSAGE_CHARS}, {@link #MAX_STACK_TRACE_CHARS}) so a
 * pathological exception cannot bloat rows or event batches. Bounding never splits a surrogate
 * pair, and the result always fits the bound, truncation marker included.
 */
public final class TextBoundary {
  /** The visible escape that replaces each U+0000 in derived text. */
  public static final String NUL_ESCAPE = "\\x00";

  /** Upper bound on a stored error message, in UTF-16 chars. */
  public static final int MAX_MESSAGE_CHARS = 4 * 1024;

  /** Upper bound on a stored stack trace, in UTF-16 chars (16 KiB). */
  public static final int MAX_STACK_TRACE_CHARS = 16 * 1024;

  private static final char NUL = '\u0000';

  private TextBoundary() {}

  /**
   * Replaces every U+0000 in handler-derived text with {@link #NUL_ESCAPE}; {@code null} stays
   * {@code null}. Use for exception messages, stack traces and {@code last_fire_error}.
   */
  public static @Nullable String sanitizeDerived(@Nullable String text) {
    return text == null ? null : escapeNul(text);
  }

  /** The non-null form of {@link #sanitizeDerived(String)}. */
  public static String escapeNul(String text) {
    if (text.indexOf(NUL) < 0) {
      return text;
    }
    return text.replace(String.valueOf(NUL), NUL_ESCAPE);
  }

  /**
   * Returns {@code value} unchanged, or rejects a caller-supplied value that contains U+0000.
   *
   * @param what names the value in the error, e.g. {@code "label key"} or {@code "queue name"}
   * @throws IllegalArgumentException naming {@code what} and the index of the first NUL
   */
  public static String requireNoNul(String value, String what) {
    int index = value.indexOf(NUL);
    if (index >= 0) {
      throw nulError(what, index);
    }
    return value;
  }

  /**
   * Like {@link #requireNoNul}, for JSON text (payloads, metadata): also rejects the JSON escape
   * for U+0000 (a backslash, then {@code u0000}), which the jsonb column type refuses for the same
   * reason (SQLSTATE 22P05). An escaped backslash followed by {@code u0000} is ordinary text and
   * passes.
   *
   * @throws IllegalArgumentException naming {@code what} and the index of the first NUL
   */
  public static String requireNoNulInJson(String json, String what) {
    requireNoNul(json, what);
    int i = json.indexOf('\\');
    while (i >= 0 && i + 1 < json.length()) {
      if (json.startsWith("u0000", i + 1)) {
        throw nulError(what + " (JSON escape \\u0000)", i);
      }
      i = json.indexOf('\\', i + 2);
    }
    return json;
  }

  /**
   * The sanitised message of {@code error}, bounded to {@link #MAX_MESSAGE_CHARS}; {@code null}
   * when the exception has none. A {@code getMessage()} that itself throws yields a note saying so.
   */
  public static @Nullable String errorMessage(Throwable error) {
    String message;
    try {
      message = error.getMessage();
    } catch (RuntimeException broken) {
      message = "(getMessage() threw " + broken.getClass().getName() + ")";
    }
    return message == null ? null : bounded(escapeNul(message), MAX_MESSAGE_CHARS);
  }

  /**
   * The sanitised stack trace of {@code error} (with causes and suppressed exceptions, as {@link
   * Throwable#printStackTrace()} prints it), bounded to {@link #MAX_STACK_TRACE_CHARS}. Handler
   * exceptions are uncontrolled code: if printing throws, the result names the class and the
   * failure instead.
   */
  public static String stackTrace(Throwable error) {
    String trace;
    try {
      StringWriter out = new StringWriter();
      try (PrintWriter writer = new PrintWriter(out)) {
        error.printStackTrace(writer);
      }
      trace = out.toString();
    } catch (RuntimeException broken) {
      trace =
          error.getClass().getName()
              + " (stack trace unavailable: printing it threw "
              + broken.getClass().getName()
              + ")";
    }
    return bounded(escapeNul(trace), MAX_STACK_TRACE_CHARS);
  }

  /**
   * {@code text} cut to at most {@code maxChars} chars, the cut marked {@code ...[truncated N
   * chars]}; the marker counts toward the bound. A surrogate pair is never split.
   *
   * @throws IllegalArgumentException when {@code maxChars} is below 64 (no room for the marker)
   */
  public static String bounded(String text, int maxChars) {
    if (maxChars < 64) {
      throw new IllegalArgumentException("maxChars must be at least 64, was " + maxChars);
    }
    if (text.length() <= maxChars) {
      return text;
    }
    int keep = maxChars - marker(text.length()).length();
    if (Character.isHighSurrogate(text.charAt(keep - 1))) {
      keep--;
    }
    return text.substring(0, keep) + marker(text.length() - keep);
  }

  private static String marker(int droppedChars) {
    return "...[truncated " + droppedChars + " chars]";
  }

  private static IllegalArgumentException nulError(String what, int index) {
    return new IllegalArgumentException(
        what
            + " contains a NUL character (U+0000) at index "
            + index
            + "; PostgreSQL text cannot store it");
  }
}
