package io.taskq.cli;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses the CLI's times: an ISO instant, or an age such as 90s, 15m, 2h, 7d. */
final class Durations {
  private static final Pattern AGE = Pattern.compile("(\\d+)(ms|s|m|h|d)");

  private Durations() {}

  /**
   * {@code 2026-12-01T10:00:00Z}, or an age ({@code 2h}: two hours before now).
   *
   * @throws IllegalArgumentException naming the option when neither
   */
  static Instant instant(String option, String text) {
    Matcher m = AGE.matcher(text.trim().toLowerCase(Locale.ROOT));
    if (m.matches()) {
      return Instant.now().minus(age(m));
    }
    try {
      return Instant.parse(text.trim());
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          option
              + " must be an ISO instant such as 2026-12-01T10:00:00Z or an age such as 90s, 15m,"
              + " 2h, 7d; got '"
              + text
              + "'");
    }
  }

  /** For a run time: an ISO instant, or a delay from now ({@code 10m}: ten minutes from now). */
  static Instant instantAhead(String option, String text) {
    Matcher m = AGE.matcher(text.trim().toLowerCase(Locale.ROOT));
    if (m.matches()) {
      return Instant.now().plus(age(m));
    }
    return instant(option, text);
  }

  private static Duration age(Matcher m) {
    long n = Long.parseLong(m.group(1));
    return switch (m.group(2)) {
      case "ms" -> Duration.ofMillis(n);
      case "s" -> Duration.ofSeconds(n);
      case "m" -> Duration.ofMinutes(n);
      case "h" -> Duration.ofHours(n);
      default -> Duration.ofDays(n);
    };
  }
}
