package io.taskq.core.internal.config;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads and writes byte sizes: a bare number of bytes, or a whole number with {@code B}, {@code
 * KiB}, {@code MiB} or {@code GiB} ({@code 512KiB}, {@code 1MiB}). Only binary units are accepted,
 * so nobody has to guess whether {@code MB} means 10^6 or 2^20 bytes.
 */
public final class SizeText {
  private static final Pattern SIZE =
      Pattern.compile("(\\d+)\\s*(b|kib|mib|gib)?", Pattern.CASE_INSENSITIVE);
  private static final long KIB = 1024;
  private static final long MIB = KIB * 1024;
  private static final long GIB = MIB * 1024;

  /** The accepted forms, for error messages and documentation. */
  public static final String FORMS = "a size such as 1048576, 512KiB, 1MiB or 1GiB";

  private SizeText() {}

  /**
   * Parses {@code text} as a number of bytes.
   *
   * @throws BadValueException when the text is empty, malformed, negative or too large
   */
  public static long parse(String text) throws BadValueException {
    String s = text.strip();
    if (s.startsWith("-")) {
      throw new BadValueException("must not be negative");
    }
    Matcher m = SIZE.matcher(s);
    if (!m.matches()) {
      throw new BadValueException("is not " + FORMS);
    }
    String unit = m.group(2);
    long factor = unit == null ? 1 : factor(unit.toLowerCase(Locale.ROOT));
    try {
      return Math.multiplyExact(Long.parseLong(m.group(1)), factor);
    } catch (NumberFormatException | ArithmeticException e) {
      throw new BadValueException("is too large");
    }
  }

  private static long factor(String unit) {
    return switch (unit) {
      case "kib" -> KIB;
      case "mib" -> MIB;
      case "gib" -> GIB;
      default -> 1;
    };
  }

  /** The shortest exact text for {@code bytes}: {@code 1MiB}, {@code 512KiB}, {@code 1000}. */
  public static String format(long bytes) {
    if (bytes != 0 && bytes % GIB == 0) {
      return bytes / GIB + "GiB";
    }
    if (bytes != 0 && bytes % MIB == 0) {
      return bytes / MIB + "MiB";
    }
    if (bytes != 0 && bytes % KIB == 0) {
      return bytes / KIB + "KiB";
    }
    return Long.toString(bytes);
  }
}
