package io.taskq.core.internal.config;

import io.taskq.SchemaName;
import java.math.BigInteger;
import java.time.Duration;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/** The value types knobs are made of. Each parses text and writes it back exactly. */
public final class ValueTypes {
  private static final Pattern INTEGER = Pattern.compile("[+-]?\\d+");
  private static final BigInteger INT_MIN = BigInteger.valueOf(Integer.MIN_VALUE);
  private static final BigInteger INT_MAX = BigInteger.valueOf(Integer.MAX_VALUE);
  private static final DateTimeFormatter TIME_OF_DAY =
      DateTimeFormatter.ofPattern("H:mm[:ss]").withResolverStyle(ResolverStyle.STRICT);

  private ValueTypes() {}

  /** A whole number. */
  public static ValueType<Integer> integer() {
    return new Simple<>("int", "", ValueTypes::parseInt, String::valueOf);
  }

  /** A byte count held in an int: bare bytes or {@code 512KiB}, {@code 1MiB} (see SizeText). */
  public static ValueType<Integer> size() {
    return new Simple<Integer>(
        "int", "bytes", ValueTypes::parseSize, bytes -> SizeText.format(bytes));
  }

  /** A duration whose bare numbers count in {@code bareUnit} (see DurationText). */
  public static ValueType<Duration> duration(ChronoUnit bareUnit) {
    String unit = bareUnit == ChronoUnit.MILLIS ? "ms" : "s";
    return new Simple<>(
        "Duration", unit, text -> DurationText.parse(text, bareUnit), DurationText::format);
  }

  /** A UTC time of day, {@code HH:mm} or {@code HH:mm:ss}. */
  public static ValueType<LocalTime> timeOfDay() {
    return new Simple<>("LocalTime", "", ValueTypes::parseTime, LocalTime::toString);
  }

  /** A schema name, validated by {@link SchemaName#problem}. */
  public static ValueType<SchemaName> schemaName() {
    return new Simple<>("SchemaName", "", ValueTypes::parseSchema, SchemaName::value);
  }

  /** Free text, surrounding blanks removed. */
  public static ValueType<String> text() {
    return new Simple<>("String", "", String::strip, text -> text);
  }

  /**
   * Optional text; empty text means unset. {@code strip} removes surrounding blanks (URLs, user
   * names); passwords keep theirs.
   */
  public static ValueType<Optional<String>> optionalText(boolean strip) {
    return new Simple<>(
        "Optional<String>",
        "",
        text -> {
          String value = strip ? text.strip() : text;
          return value.isEmpty() ? Optional.empty() : Optional.of(value);
        },
        value -> value.orElse("")) {
      @Override
      public boolean emptyMeansUnset() {
        return true;
      }
    };
  }

  /** {@code true} or {@code false}, in any case. */
  public static ValueType<Boolean> bool() {
    return new Simple<>("boolean", "", ValueTypes::parseBool, String::valueOf);
  }

  /** A comma-separated list; entries are stripped, and checked by the knob's rule. */
  public static ValueType<List<String>> commaList() {
    return new Simple<>(
        "List<String>", "", ValueTypes::parseList, value -> String.join(",", value));
  }

  private static Integer parseInt(String text) throws BadValueException {
    String s = text.strip();
    if (!INTEGER.matcher(s).matches()) {
      throw new BadValueException("is not a whole number");
    }
    BigInteger value = new BigInteger(s);
    if (value.compareTo(INT_MIN) < 0 || value.compareTo(INT_MAX) > 0) {
      throw new BadValueException("is out of range");
    }
    return value.intValue();
  }

  private static Boolean parseBool(String text) throws BadValueException {
    String s = text.strip();
    if (s.equalsIgnoreCase("true") || s.equalsIgnoreCase("false")) {
      return Boolean.valueOf(s);
    }
    throw new BadValueException("is not true or false");
  }

  private static Integer parseSize(String text) throws BadValueException {
    long bytes = SizeText.parse(text);
    if (bytes > Integer.MAX_VALUE) {
      throw new BadValueException("is too large");
    }
    return (int) bytes;
  }

  private static LocalTime parseTime(String text) throws BadValueException {
    try {
      return LocalTime.parse(text.strip(), TIME_OF_DAY);
    } catch (DateTimeParseException e) {
      throw new BadValueException("is not a time of day (HH:mm or HH:mm:ss, 00:00 to 23:59:59)");
    }
  }

  private static SchemaName parseSchema(String text) throws BadValueException {
    String problem = SchemaName.problem(text);
    if (problem != null) {
      throw new BadValueException("is not a valid schema name: " + problem);
    }
    return SchemaName.of(text);
  }

  private static List<String> parseList(String text) {
    List<String> entries = new ArrayList<>();
    for (String entry : text.split(",", -1)) {
      entries.add(entry.strip());
    }
    return List.copyOf(entries);
  }

  /** A parse function that may reject its text. */
  @FunctionalInterface
  interface Parser<T> {
    T parse(String text) throws BadValueException;
  }

  /** A formatting function. */
  @FunctionalInterface
  interface Formatter<T> {
    String format(T value);
  }

  private static class Simple<T> implements ValueType<T> {
    private final String javaType;
    private final String bareUnit;
    private final Parser<T> parser;
    private final Formatter<T> formatter;

    Simple(String javaType, String bareUnit, Parser<T> parser, Formatter<T> formatter) {
      this.javaType = javaType;
      this.bareUnit = bareUnit;
      this.parser = parser;
      this.formatter = formatter;
    }

    @Override
    public T parse(String text) throws BadValueException {
      return parser.parse(text);
    }

    @Override
    public String format(T value) {
      return formatter.format(value);
    }

    @Override
    public String javaType() {
      return javaType;
    }

    @Override
    public String bareUnit() {
      return bareUnit;
    }
  }
}
