package io.taskq.dashboard.internal;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/** How numbers, ages and instants read on the pages (text only: escaping is the template's). */
public final class Format {
  private static final DateTimeFormatter INSTANT =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'", Locale.ROOT)
          .withZone(ZoneOffset.UTC);

  private Format() {}

  /** {@code 950}, {@code 12 400}, {@code 1.2M}: exact below 100 000, rounded above. */
  public static String count(long n) {
    if (n < 100_000) {
      return String.format(Locale.ROOT, "%,d", n).replace(',', ' ');
    }
    if (n < 1_000_000) {
      return String.format(Locale.ROOT, "%.0fk", n / 1_000.0);
    }
    return String.format(Locale.ROOT, "%.1fM", n / 1_000_000.0);
  }

  /** {@code 850 ms}, {@code 12 s}, {@code 4 min 3 s}, {@code 2 h 5 min}, {@code 3 d 4 h}. */
  public static String age(Duration d) {
    long s = d.toSeconds();
    if (s < 1) {
      return d.toMillis() + " ms";
    }
    if (s < 60) {
      return s + " s";
    }
    if (s < 3600) {
      return s / 60 + " min " + s % 60 + " s";
    }
    if (s < 86_400) {
      return s / 3600 + " h " + s % 3600 / 60 + " min";
    }
    return s / 86_400 + " d " + s % 86_400 / 3600 + " h";
  }

  /** {@code text} encoded for a query parameter value (the template then escapes it for HTML). */
  public static String queryValue(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }

  /** {@code 2026-12-01 19:40:00 UTC}, or an empty string for null. */
  public static String instant(@Nullable Instant at) {
    return at == null ? "" : INSTANT.format(at);
  }
}
