package io.taskq.limits;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The reference model of one name's sliding-window log, written from its definition (the same model
 * the Redis script is checked against): each permit taken counts for one window; a request is
 * admitted when the permits still in the window plus the request fit the limit; a refused one
 * learns when the oldest permits it needs gone will have left. Integer microseconds throughout.
 */
final class SlidingWindowModel {
  private final int limit;
  private final long window;
  private final Deque<Long> taken = new ArrayDeque<>();

  SlidingWindowModel(SlidingWindowLog log) {
    this.limit = log.limit();
    this.window = log.windowMicros();
  }

  Decision decide(long now, int permits) {
    while (!taken.isEmpty() && taken.peekFirst() <= now - window) {
      taken.removeFirst();
    }
    int count = taken.size();
    if (count + permits <= limit) {
      for (int i = 0; i < permits; i++) {
        taken.addLast(now);
      }
      return Decision.allowed(limit - count - permits);
    }
    int leaving = count + permits - limit;
    long oldestNeeded = taken.stream().skip(leaving - 1L).findFirst().orElseThrow();
    return Decision.denied(
        Duration.of(oldestNeeded + window - now, ChronoUnit.MICROS), limit - count);
  }
}
