package io.taskq.cli;

import java.time.Duration;
import java.util.Locale;

/** Prints the CLI's ages and durations short, for tables: 850ms, 42s, 3m12s, 5h03m, 2d04h. */
final class AgeText {
  private AgeText() {}

  /** A short human age: 850ms, 42s, 3m12s, 5h03m, 2d04h. */
  static String human(Duration d) {
    long s = d.toSeconds();
    if (s < 1) {
      return d.toMillis() + "ms";
    }
    if (s < 60) {
      return s + "s";
    }
    if (s < 3600) {
      return String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
    }
    if (s < 86_400) {
      return String.format(Locale.ROOT, "%dh%02dm", s / 3600, (s % 3600) / 60);
    }
    return String.format(Locale.ROOT, "%dd%02dh", s / 86_400, (s % 86_400) / 3600);
  }
}
