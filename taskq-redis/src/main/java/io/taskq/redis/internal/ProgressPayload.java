package io.taskq.redis.internal;

import io.taskq.progress.Progress;
import java.time.Instant;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The two shapes a progress report takes in Redis, and the way back to {@link Progress}.
 *
 * <ul>
 *   <li>The stored hash at {@code taskq:{schema}:progress:{job_id}}: fields {@code fraction},
 *       {@code message}, {@code reported_at_us} and, when present, {@code detail}.
 *   <li>The message on {@code taskq:{schema}:progress}: one JSON object, its members always in this
 *       order so the decoder below needs no general JSON parser: <br>
 *       {@code {"job_id":42,"fraction":0.5,"reported_at_us":1700000000000000,"message":"...",
 *       "detail":{...} or null}}
 * </ul>
 *
 * Anything else on the channel (another publisher's text) decodes to {@code null} and is ignored.
 */
public final class ProgressPayload {
  private static final String JOB_ID = "{\"job_id\":";
  private static final String FRACTION = ",\"fraction\":";
  private static final String REPORTED_AT = ",\"reported_at_us\":";
  private static final String MESSAGE = ",\"message\":";
  private static final String DETAIL = ",\"detail\":";

  private ProgressPayload() {}

  /** The report stored in {@code hash} for {@code jobId}; {@code null} when the hash is empty. */
  public static @Nullable Progress fromHash(long jobId, Map<String, String> hash) {
    String fraction = hash.get("fraction");
    String message = hash.get("message");
    String reportedAt = hash.get("reported_at_us");
    if (fraction == null || message == null || reportedAt == null) {
      return null;
    }
    return new Progress(
        jobId,
        Double.parseDouble(fraction),
        message,
        hash.get("detail"),
        instant(Long.parseLong(reportedAt)));
  }

  /** The report published as {@code payload}; {@code null} when it is not a TaskQ report. */
  public static @Nullable Progress decode(String payload) {
    try {
      return decodeStrictly(payload);
    } catch (RuntimeException notOurs) {
      return null;
    }
  }

  private static Progress decodeStrictly(String payload) {
    Cursor in = new Cursor(payload);
    in.expect(JOB_ID);
    long jobId = Long.parseLong(in.until(FRACTION));
    double fraction = Double.parseDouble(in.until(REPORTED_AT));
    long reportedAt = Long.parseLong(in.until(MESSAGE));
    String message = in.jsonString();
    in.expect(DETAIL);
    String detail = in.restBefore('}');
    return new Progress(
        jobId, fraction, message, detail.equals("null") ? null : detail, instant(reportedAt));
  }

  private static Instant instant(long micros) {
    return Instant.ofEpochSecond(
        Math.floorDiv(micros, 1_000_000), Math.floorMod(micros, 1_000_000) * 1000L);
  }

  /** A read position in the payload. */
  private static final class Cursor {
    private final String text;
    private int at;

    Cursor(String text) {
      this.text = text;
    }

    void expect(String literal) {
      if (!text.startsWith(literal, at)) {
        throw new IllegalArgumentException("expected " + literal + " at " + at);
      }
      at += literal.length();
    }

    String until(String literal) {
      int end = text.indexOf(literal, at);
      if (end < 0) {
        throw new IllegalArgumentException("missing " + literal);
      }
      String value = text.substring(at, end);
      at = end + literal.length();
      return value;
    }

    String restBefore(char last) {
      if (text.charAt(text.length() - 1) != last || text.length() - 1 < at) {
        throw new IllegalArgumentException("expected a final " + last);
      }
      return text.substring(at, text.length() - 1);
    }

    String jsonString() {
      expect("\"");
      StringBuilder out = new StringBuilder();
      while (true) {
        char c = text.charAt(at++);
        if (c == '"') {
          return out.toString();
        }
        out.append(c == '\\' ? escaped() : c);
      }
    }

    private char escaped() {
      char c = text.charAt(at++);
      return switch (c) {
        case '"', '\\', '/' -> c;
        case 'b' -> '\b';
        case 'f' -> '\f';
        case 'n' -> '\n';
        case 'r' -> '\r';
        case 't' -> '\t';
        case 'u' -> {
          char unit = (char) Integer.parseInt(text.substring(at, at + 4), 16);
          at += 4;
          yield unit;
        }
        default -> throw new IllegalArgumentException("bad escape \\" + c);
      };
    }
  }
}
