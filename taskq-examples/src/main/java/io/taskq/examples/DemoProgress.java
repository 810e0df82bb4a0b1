package io.taskq.examples;

import java.time.Duration;
import java.util.Locale;

/**
 * The demo's progress line: a bar, the counts, and the elapsed time, rate and time left, e.g.
 *
 * <pre>
 * [################........................] 2010/5000  40%  0:04 elapsed  502 jobs/s  ETA 0:06
 *   8 claimed  61 retries  0 failed
 * </pre>
 *
 * (one line). The rate is jobs finished per second since the enqueue, so the ETA settles quickly
 * and does not jump with each redraw; in the first second there is no rate to speak of and the ETA
 * shows {@code -:--}.
 */
final class DemoProgress {
  private static final int WIDTH = 40;

  private DemoProgress() {}

  static String line(DemoReport.Counts counts, long total, Duration elapsed) {
    long done = counts.finished();
    int filled = (int) (WIDTH * done / Math.max(1, total));
    double seconds = elapsed.toMillis() / 1000.0;
    double rate = seconds > 0 ? done / seconds : 0;
    return String.format(
        Locale.ROOT,
        "[%s%s] %d/%d %3d%%  %s elapsed  %4.0f jobs/s  ETA %s  %d claimed  %d retries  %d failed",
        "#".repeat(filled),
        ".".repeat(WIDTH - filled),
        done,
        total,
        100 * done / Math.max(1, total),
        clock((long) seconds),
        rate,
        seconds < 1 ? "-:--" : eta(total - done, rate),
        counts.running(),
        counts.retries(),
        counts.failed());
  }

  private static String eta(long left, double rate) {
    if (left <= 0) {
      return clock(0);
    }
    // Rounded up, so a last fraction of a second still shows as time left.
    return rate > 0 ? clock((long) Math.ceil(left / rate)) : "-:--";
  }

  /** {@code m:ss}. */
  static String clock(long seconds) {
    return String.format(Locale.ROOT, "%d:%02d", seconds / 60, seconds % 60);
  }
}
