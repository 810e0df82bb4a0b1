package io.taskq.dashboard.internal;

import io.taskq.TaskQ;
import io.taskq.operations.FinishedMinute;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The overview's chart (W1): jobs succeeded and failed per minute over the last hour, drawn as an
 * SVG bar chart on the server (no charting script, nothing inline for the content security policy
 * to refuse). The read behind it ({@link TaskQ#finishedPerMinute}) is a range scan of an index,
 * bounded by the hour, and is made at most once per {@link #REFRESH}, whoever asks: many open
 * dashboards cost one read per period.
 */
final class ThroughputChart {
  static final Duration WINDOW = Duration.ofHours(1);
  static final Duration REFRESH = Duration.ofSeconds(10);
  private static final int MINUTES = 60;
  private static final int BAR = 10;
  private static final int HEIGHT = 100;
  private static final DateTimeFormatter HH_MM =
      DateTimeFormatter.ofPattern("HH:mm", Locale.ROOT).withZone(ZoneOffset.UTC);

  private final TaskQ taskq;
  private final InstantSource clock;
  private @Nullable Map<String, Object> cached;
  private Instant readAt = Instant.MIN;

  ThroughputChart(TaskQ taskq, InstantSource clock) {
    this.taskq = taskq;
    this.clock = clock;
  }

  /** The chart's scope: bars, the scale and totals; or {@code unavailable}. */
  synchronized Map<String, Object> scope() {
    Instant now = clock.instant();
    Map<String, Object> last = cached;
    if (last != null && readAt.plus(REFRESH).isAfter(now)) {
      return last;
    }
    Map<String, Object> fresh;
    try {
      fresh = draw(taskq.finishedPerMinute(WINDOW), now);
    } catch (SQLException | RuntimeException e) {
      return Map.of("unavailable", true);
    }
    cached = fresh;
    readAt = now;
    return fresh;
  }

  static Map<String, Object> draw(List<FinishedMinute> minutes, Instant now) {
    long first = now.getEpochSecond() / 60 - (MINUTES - 1);
    long[] ok = new long[MINUTES];
    long[] failed = new long[MINUTES];
    for (FinishedMinute m : minutes) {
      int i = (int) (m.minute().getEpochSecond() / 60 - first);
      if (i >= 0 && i < MINUTES) {
        ok[i] += m.succeeded();
        failed[i] += m.failed();
      }
    }
    long max = 1;
    for (int i = 0; i < MINUTES; i++) {
      max = Math.max(max, ok[i] + failed[i]);
    }
    List<Map<String, Object>> bars = new ArrayList<>();
    long totalOk = 0;
    long totalFailed = 0;
    for (int i = 0; i < MINUTES; i++) {
      bars.add(bar(i, ok[i], failed[i], max, Instant.ofEpochSecond((first + i) * 60)));
      totalOk += ok[i];
      totalFailed += failed[i];
    }
    Map<String, Object> scope = new HashMap<>();
    scope.put("bars", bars);
    scope.put("max", Format.count(max));
    scope.put("succeeded", Format.count(totalOk));
    scope.put("failed", Format.count(totalFailed));
    scope.put("width", MINUTES * BAR);
    return scope;
  }

  private static Map<String, Object> bar(int i, long ok, long failed, long max, Instant minute) {
    int okHeight = (int) Math.round((double) ok * HEIGHT / max);
    int failHeight = (int) Math.round((double) failed * HEIGHT / max);
    Map<String, Object> bar = new HashMap<>();
    bar.put("x", i * BAR + 1);
    bar.put("w", BAR - 2);
    bar.put("okY", 10 + HEIGHT - okHeight);
    bar.put("okH", okHeight);
    bar.put("failY", 10 + HEIGHT - okHeight - failHeight);
    bar.put("failH", failHeight);
    bar.put("label", HH_MM.format(minute) + " UTC: " + ok + " succeeded, " + failed + " failed");
    return bar;
  }
}
