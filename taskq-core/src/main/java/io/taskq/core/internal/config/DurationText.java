package io.taskq.core.internal.config;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads and writes durations the way operators type them (D6).
 *
 * <p>Accepted: a number with a unit ({@code 500ms}, {@code 30s}, {@code 5m}, {@code 2h}, {@code
 * 7d}), several of them largest unit first ({@code 1h30m}), ISO-8601 ({@code PT30S}, {@code P7D}),
 * and a bare whole number in the knob's own unit. Units are lower case, so {@code 5M} can never be
 * mistaken for months. Negative values are rejected here, so no knob can receive one; whether zero
 * is allowed is the knob's rule, not the parser's.
 *
 * <p>{@link #format} writes the shortest exact form and {@code parse(format(d)) == d} holds for
 * every non-negative duration (a property test pins it).
 */
public final class DurationText {
  private static final Pattern PART = Pattern.compile("(\\d+)(ms|s|m|h|d)");
  private static final Pattern DIGITS = Pattern.compile("\\d+");
  private static final List<String> UNITS = List.of("ms", "s", "m", "h", "d");
  private static final long SECONDS_PER_DAY = 86_400;

  private DurationText() {}

  /**
   * Parses {@code text}; a bare number counts in {@code bareUnit}.
   *
   * @throws BadValueException saying what is wrong (empty, negative, malformed, too large)
   */
  public static Duration parse(String text, ChronoUnit bareUnit) throws BadValueException {
    String s = text.strip();
    if (s.isEmpty()) {
      throw new BadValueException("is empty; expected " + forms(bareUnit));
    }
    if (s.startsWith("-")) {
      throw new BadValueException("must not be negative");
    }
    try {
      if (s.charAt(0) == 'P' || s.charAt(0) == 'p') {
        return iso(s, bareUnit);
      }
      if (DIGITS.matcher(s).matches()) {
        return Duration.of(Long.parseLong(s), bareUnit);
      }
      return withUnits(s, bareUnit);
    } catch (NumberFormatException | ArithmeticException e) {
      throw new BadValueException("is too large");
    }
  }

  /** The accepted forms, for error messages and documentation. */
  public static String forms(ChronoUnit bareUnit) {
    return "a duration such as 500ms, 30s, 5m, 2h, 7d, 1h30m, PT30S, or a bare number of "
        + unitName(bareUnit);
  }

  /** The word for a bare number's unit: {@code milliseconds} or {@code seconds}. */
  public static String unitName(ChronoUnit unit) {
    return unit == ChronoUnit.MILLIS ? "milliseconds" : unit.toString().toLowerCase(Locale.ROOT);
  }

  /** The shortest exact text for {@code d}: {@code 2s}, {@code 1750ms}, {@code 7d}, or ISO-8601. */
  public static String format(Duration d) {
    if (d.isNegative()) {
      return d.toString();
    }
    if (d.isZero()) {
      return "0s";
    }
    long seconds = d.getSeconds();
    int nanos = d.getNano();
    if (nanos == 0) {
      return wholeSeconds(seconds);
    }
    if (nanos % 1_000_000 != 0 || seconds > Long.MAX_VALUE / 1000 - 1) {
      return d.toString();
    }
    return (seconds * 1000 + nanos / 1_000_000) + "ms";
  }

  private static String wholeSeconds(long seconds) {
    if (seconds % SECONDS_PER_DAY == 0) {
      return seconds / SECONDS_PER_DAY + "d";
    }
    if (seconds % 3600 == 0) {
      return seconds / 3600 + "h";
    }
    if (seconds % 60 == 0) {
      return seconds / 60 + "m";
    }
    return seconds + "s";
  }

  private static Duration iso(String s, ChronoUnit bareUnit) throws BadValueException {
    Duration d;
    try {
      d = Duration.parse(s);
    } catch (DateTimeParseException e) {
      throw new BadValueException("is not " + forms(bareUnit));
    }
    if (d.isNegative()) {
      throw new BadValueException("must not be negative");
    }
    return d;
  }

  private static Duration withUnits(String s, ChronoUnit bareUnit) throws BadValueException {
    Matcher m = PART.matcher(s);
    Duration total = Duration.ZERO;
    int previousRank = UNITS.size();
    int pos = 0;
    while (pos < s.length()) {
      m.region(pos, s.length());
      if (!m.lookingAt()) {
        throw new BadValueException("is not " + forms(bareUnit));
      }
      int rank = UNITS.indexOf(m.group(2));
      if (rank >= previousRank) {
        throw new BadValueException("lists its units out of order; write the largest unit first");
      }
      total = total.plus(part(Long.parseLong(m.group(1)), rank));
      previousRank = rank;
      pos = m.end();
    }
    return total;
  }

  private static Duration part(long amount, int rank) {
    return switch (rank) {
      case 0 -> Duration.ofMillis(amount);
      case 1 -> Duration.ofSeconds(amount);
      case 2 -> Duration.ofMinutes(amount);
      case 3 -> Duration.ofHours(amount);
      default -> Duration.ofDays(amount);
    };
  }
}
