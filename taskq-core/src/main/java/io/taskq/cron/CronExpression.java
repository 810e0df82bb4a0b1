package io.taskq.cron;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A cron expression evaluated on the wall clock of a time zone (S12, {@code docs/cron.md}).
 *
 * <p>Syntax: the standard five fields {@code minute hour day-of-month month day-of-week}, or six
 * with a leading {@code second}. Each field is {@code *}, a value, a range {@code a-b}, a step
 * {@code * /n}, {@code a-b/n} or {@code a/n} (written without the space), or a comma-separated list
 * of those. Months may be written {@code JAN}-{@code DEC}, days of the week {@code SUN}-{@code SAT}
 * (case-insensitive); day of week 0 and 7 are both Sunday. {@code ?} means {@code *} in the two day
 * fields. Shorthands: {@code @yearly} ({@code @annually}), {@code @monthly}, {@code @weekly},
 * {@code @daily} ({@code @midnight}), {@code @hourly}. When both day fields are restricted (neither
 * starts with {@code *} or {@code ?}) a day matches when either matches, as in Vixie cron;
 * otherwise both must match. Quartz extensions ({@code L}, {@code W}, {@code #}) and a year field
 * are not supported and are rejected by name.
 *
 * <p><b>Daylight-saving time</b>, where the wall clock skips or repeats:
 *
 * <ul>
 *   <li>a wall-clock time that does not exist (inside a spring-forward gap) fires once, at the
 *       instant the gap ends; several matching times in one gap collapse into that one fire;
 *   <li>a wall-clock time that occurs twice (inside a fall-back overlap) fires once, at its first
 *       occurrence, unless the expression fires every hour (its hour field matches all 24 hours):
 *       then it follows elapsed time and fires in both passes, so an every-15-minutes schedule does
 *       not pause for an hour.
 * </ul>
 *
 * Immutable and thread-safe.
 */
public final class CronExpression {
  /** The longest expression accepted, in characters. */
  public static final int MAX_CHARS = 256;

  /** How far {@link #nextAfter} searches before deciding the expression never fires. */
  private static final int SEARCH_YEARS = 10;

  private static final Map<String, String> MACROS =
      Map.of(
          "@yearly", "0 0 1 1 *",
          "@annually", "0 0 1 1 *",
          "@monthly", "0 0 1 * *",
          "@weekly", "0 0 * * 0",
          "@daily", "0 0 * * *",
          "@midnight", "0 0 * * *",
          "@hourly", "0 * * * *");

  private static final List<String> MONTHS =
      List.of("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC");
  private static final List<String> DAYS = List.of("SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT");

  private final String text;
  private final BitSet seconds;
  private final BitSet minutes;
  private final BitSet hours;
  private final BitSet daysOfMonth;
  private final BitSet months;
  private final BitSet daysOfWeek;
  private final boolean domRestricted;
  private final boolean dowRestricted;

  private CronExpression(String text, String[] fields) {
    this.text = text;
    int offset = fields.length == 6 ? 1 : 0;
    this.seconds = offset == 1 ? parse(fields[0], Field.SECOND) : single(0);
    this.minutes = parse(fields[offset], Field.MINUTE);
    this.hours = parse(fields[offset + 1], Field.HOUR);
    this.daysOfMonth = parse(fields[offset + 2], Field.DAY_OF_MONTH);
    this.months = parse(fields[offset + 3], Field.MONTH);
    BitSet dow = parse(fields[offset + 4], Field.DAY_OF_WEEK);
    if (dow.get(7)) {
      dow.set(0);
      dow.clear(7);
    }
    this.daysOfWeek = dow;
    this.domRestricted = restricted(fields[offset + 2]);
    this.dowRestricted = restricted(fields[offset + 4]);
  }

  /**
   * Parses {@code expression}.
   *
   * @param expression the five-field expression
   * @return the parsed expression
   * @throws IllegalArgumentException naming the problem (the field, the bad part and the allowed
   *     range) when the expression is malformed, contains a NUL, or can never fire (say, February
   *     30th)
   */
  public static CronExpression parse(String expression) {
    Objects.requireNonNull(expression, "cron expression");
    checkText(expression);
    String trimmed = expression.trim();
    String[] fields = fields(trimmed);
    CronExpression parsed;
    try {
      parsed = new CronExpression(trimmed, fields);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("cron expression '" + trimmed + "': " + e.getMessage(), e);
    }
    LocalDateTime probe = LocalDateTime.of(2000, 1, 1, 0, 0);
    if (parsed.nextLocal(probe, probe.plusYears(SEARCH_YEARS)) == null) {
      throw new IllegalArgumentException(
          "cron expression '" + trimmed + "' never fires (no such day in any month it names)");
    }
    return parsed;
  }

  /** Refuses a NUL character and an expression longer than {@value #MAX_CHARS} characters. */
  private static void checkText(String expression) {
    if (expression.indexOf('\0') >= 0) {
      throw new IllegalArgumentException(
          "cron expression contains a NUL character (U+0000) at index " + expression.indexOf('\0'));
    }
    if (expression.length() > MAX_CHARS) {
      throw new IllegalArgumentException(
          "cron expression must be at most "
              + MAX_CHARS
              + " characters, was "
              + expression.length());
    }
  }

  /** The fields of {@code trimmed}, a shorthand ({@code @daily}) expanded first. */
  private static String[] fields(String trimmed) {
    String expanded = trimmed.startsWith("@") ? macro(trimmed) : trimmed;
    String[] fields = expanded.isEmpty() ? new String[0] : expanded.split("\\s+");
    if (fields.length != 5 && fields.length != 6) {
      throw new IllegalArgumentException(
          "cron expression '"
              + trimmed
              + "' has "
              + fields.length
              + " fields; expected 5 (minute hour day-of-month month day-of-week) or 6 (second"
              + " first)");
    }
    return fields;
  }

  private static String macro(String trimmed) {
    String macro = MACROS.get(trimmed.toLowerCase(Locale.ROOT));
    if (macro == null) {
      throw new IllegalArgumentException(
          "cron expression '"
              + trimmed
              + "': unknown shorthand; use one of @yearly, @annually, @monthly, @weekly,"
              + " @daily, @midnight, @hourly");
    }
    return macro;
  }

  /** {@return the expression as given (trimmed)} */
  public String text() {
    return text;
  }

  /**
   * {@return the first fire time strictly after {@code after}, on the wall clock of {@code zone},
   * with the daylight-saving rules of the class comment}
   *
   * @param after the instant to search after
   * @param zone the time zone whose wall clock the fields are read in
   * @throws IllegalStateException when no fire time follows within ten years (past year 9999)
   */
  public Instant nextAfter(Instant after, ZoneId zone) {
    Objects.requireNonNull(after, "after");
    Objects.requireNonNull(zone, "zone");
    ZoneRules rules = zone.getRules();
    Instant from = after.truncatedTo(ChronoUnit.SECONDS);
    LocalDateTime start = LocalDateTime.ofInstant(from, zone).plusSeconds(1);
    LocalDateTime limit = start.plusYears(SEARCH_YEARS);
    Instant found = null;
    LocalDateTime cursor = start;
    while (found == null) {
      LocalDateTime local = nextLocal(cursor, limit);
      if (local == null) {
        throw new IllegalStateException(
            "cron expression '" + text + "' has no fire time after " + after + " in " + zone);
      }
      found = resolve(local, rules, after);
      cursor = local.plusSeconds(1);
    }
    return everyHour() ? secondPass(found, after, rules) : found;
  }

  /** The instant {@code local} fires at, or null when it does not fire after {@code after}. */
  private @Nullable Instant resolve(LocalDateTime local, ZoneRules rules, Instant after) {
    List<ZoneOffset> offsets = rules.getValidOffsets(local);
    if (offsets.isEmpty()) {
      Instant gapEnd = rules.getTransition(local).getInstant();
      return gapEnd.isAfter(after) ? gapEnd : null;
    }
    Instant first = local.toInstant(offsets.get(0));
    if (first.isAfter(after)) {
      return first;
    }
    if (offsets.size() == 2 && everyHour()) {
      Instant second = local.toInstant(offsets.get(1));
      return second.isAfter(after) ? second : null;
    }
    return null;
  }

  /**
   * For an every-hour expression: when {@code found} lies past a fall-back transition that follows
   * {@code after}, the repeated hour's second pass may hold an earlier fire.
   */
  private Instant secondPass(Instant found, Instant after, ZoneRules rules) {
    ZoneOffsetTransition t = rules.nextTransition(after);
    if (t == null || !t.isOverlap() || found.isBefore(t.getInstant())) {
      return found;
    }
    LocalDateTime overlapStart = t.getDateTimeAfter();
    LocalDateTime overlapEnd = t.getDateTimeBefore();
    LocalDateTime local = nextLocal(overlapStart, overlapEnd);
    while (local != null && local.isBefore(overlapEnd)) {
      Instant candidate = local.toInstant(t.getOffsetAfter());
      if (candidate.isAfter(after)) {
        return candidate.isBefore(found) ? candidate : found;
      }
      local = nextLocal(local.plusSeconds(1), overlapEnd);
    }
    return found;
  }

  private boolean everyHour() {
    return hours.cardinality() == 24;
  }

  /** The first matching wall-clock time at or after {@code from}, or null before {@code limit}. */
  private @Nullable LocalDateTime nextLocal(LocalDateTime from, LocalDateTime limit) {
    LocalDateTime c = from.withNano(0);
    if (c.isBefore(from)) {
      c = c.plusSeconds(1);
    }
    while (c.isBefore(limit)) {
      if (!months.get(c.getMonthValue())) {
        c = c.toLocalDate().withDayOfMonth(1).plusMonths(1).atStartOfDay();
      } else if (!dayMatches(c.toLocalDate())) {
        c = c.toLocalDate().plusDays(1).atStartOfDay();
      } else if (!hours.get(c.getHour())) {
        c = c.truncatedTo(ChronoUnit.HOURS).plusHours(1);
      } else if (!minutes.get(c.getMinute())) {
        c = c.truncatedTo(ChronoUnit.MINUTES).plusMinutes(1);
      } else {
        int second = seconds.nextSetBit(c.getSecond());
        if (second < 0) {
          c = c.truncatedTo(ChronoUnit.MINUTES).plusMinutes(1);
        } else {
          return c.withSecond(second);
        }
      }
    }
    return null;
  }

  private boolean dayMatches(LocalDate date) {
    boolean dom = daysOfMonth.get(date.getDayOfMonth());
    boolean dow =
        daysOfWeek.get(
            date.getDayOfWeek() == DayOfWeek.SUNDAY ? 0 : date.getDayOfWeek().getValue());
    if (domRestricted && dowRestricted) {
      return dom || dow;
    }
    return dom && dow;
  }

  private static boolean restricted(String field) {
    return !(field.startsWith("*") || field.startsWith("?"));
  }

  private static BitSet single(int value) {
    BitSet bits = new BitSet();
    bits.set(value);
    return bits;
  }

  private enum Field {
    SECOND("second", 0, 59),
    MINUTE("minute", 0, 59),
    HOUR("hour", 0, 23),
    DAY_OF_MONTH("day-of-month", 1, 31),
    MONTH("month", 1, 12),
    DAY_OF_WEEK("day-of-week", 0, 7);

    final String label;
    final int min;
    final int max;

    Field(String label, int min, int max) {
      this.label = label;
      this.min = min;
      this.max = max;
    }

    /** The names the field accepts, in value order from {@link #nameBase()}. */
    List<String> names() {
      return switch (this) {
        case MONTH -> MONTHS;
        case DAY_OF_WEEK -> DAYS;
        default -> List.of();
      };
    }

    /** The first value a name stands for: JAN = 1, SUN = 0. */
    int nameBase() {
      return this == MONTH ? 1 : 0;
    }
  }

  private static BitSet parse(String field, Field kind) {
    BitSet bits = new BitSet();
    for (String part : field.split(",", -1)) {
      parsePart(part, kind, bits);
    }
    return bits;
  }

  private static void parsePart(String part, Field kind, BitSet bits) {
    if (part.isEmpty()) {
      throw new IllegalArgumentException(kind.label + " field has an empty list element");
    }
    String range = part;
    int step = 1;
    int slash = part.indexOf('/');
    if (slash >= 0) {
      range = part.substring(0, slash);
      step = number(part.substring(slash + 1), kind, "step");
      if (step < 1) {
        throw new IllegalArgumentException(kind.label + " step must be at least 1, was " + step);
      }
    }
    int[] span = span(range, kind, slash >= 0);
    for (int v = span[0]; v <= span[1]; v += step) {
      bits.set(v);
    }
  }

  /**
   * The first and last value of {@code range} ({@code *}, {@code a-b} or {@code a}); a single value
   * with a step ({@code a/n}) runs to the field's last value.
   */
  private static int[] span(String range, Field kind, boolean stepped) {
    int last = kind == Field.DAY_OF_WEEK ? 6 : kind.max;
    if (range.equals("*") || (range.equals("?") && isDayField(kind))) {
      return new int[] {kind.min, last};
    }
    int dash = range.indexOf('-');
    if (dash <= 0) {
      int from = value(range, kind);
      return new int[] {from, stepped ? last : from};
    }
    int from = value(range.substring(0, dash), kind);
    int to = value(range.substring(dash + 1), kind);
    if (from > to) {
      throw new IllegalArgumentException(
          kind.label
              + " range '"
              + range
              + "' runs backwards; write it as two ranges, e.g. '"
              + from
              + "-"
              + kind.max
              + ","
              + kind.min
              + "-"
              + to
              + "'");
    }
    return new int[] {from, to};
  }

  private static boolean isDayField(Field kind) {
    return kind == Field.DAY_OF_MONTH || kind == Field.DAY_OF_WEEK;
  }

  private static int value(String token, Field kind) {
    if (token.equals("?")) {
      throw new IllegalArgumentException(
          "'?' is allowed only in the day-of-month and day-of-week fields");
    }
    int index = kind.names().indexOf(token.toUpperCase(Locale.ROOT));
    int v = index >= 0 ? index + kind.nameBase() : number(token, kind, "value");
    if (v < kind.min || v > kind.max) {
      throw new IllegalArgumentException(
          kind.label + " value " + v + " is out of range [" + kind.min + ", " + kind.max + "]");
    }
    return v;
  }

  private static int number(String token, Field kind, String what) {
    if (token.isEmpty() || token.length() > 4 || !token.chars().allMatch(Character::isDigit)) {
      String hint =
          token.contains("L") || token.contains("W") || token.contains("#")
              ? " (the Quartz extensions L, W and # are not supported)"
              : "";
      throw new IllegalArgumentException(
          kind.label + " " + what + " '" + token + "' is not a number" + namesHint(kind) + hint);
    }
    return Integer.parseInt(token);
  }

  private static String namesHint(Field kind) {
    return kind.names().isEmpty()
        ? ""
        : " or a name ("
            + kind.names().get(0)
            + "-"
            + kind.names().get(kind.names().size() - 1)
            + ")";
  }

  @Override
  public boolean equals(@Nullable Object other) {
    return other instanceof CronExpression that && that.text.equals(text);
  }

  @Override
  public int hashCode() {
    return text.hashCode();
  }

  @Override
  public String toString() {
    return text;
  }
}
