package io.taskq.redis.internal;

import io.taskq.limits.Decision;
import io.taskq.limits.Gcra;
import io.taskq.limits.RateLimit;
import io.taskq.limits.SlidingWindowLog;
import io.taskq.limits.TokenBucket;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Reference models of the three limits, written from their definitions rather than from the
 * scripts: what a single name's limit must decide at each instant (µs), in exact integer
 * arithmetic. A missing Redis key is the model's initial state.
 */
abstract class LimitModel {
  abstract Decision decide(long now, int permits);

  static LimitModel of(RateLimit limit) {
    if (limit instanceof TokenBucket bucket) {
      return new Bucket(bucket.capacity(), bucket.refillIntervalMicros());
    }
    if (limit instanceof SlidingWindowLog window) {
      return new Log(window.limit(), window.windowMicros());
    }
    Gcra gcra = (Gcra) limit;
    return new Cell(gcra.emissionIntervalMicros(), gcra.burst());
  }

  static Decision denied(long retryMicros, long remaining) {
    return Decision.denied(Duration.of(retryMicros, ChronoUnit.MICROS), remaining);
  }

  /** Tokens: one accrues per interval since the last accrual, up to the capacity. */
  static final class Bucket extends LimitModel {
    private final long capacity;
    private final long interval;
    private long tokens;
    private long accruingSince;

    Bucket(long capacity, long interval) {
      this.capacity = capacity;
      this.interval = interval;
      this.tokens = capacity;
      this.accruingSince = Long.MIN_VALUE;
    }

    @Override
    Decision decide(long now, int permits) {
      if (accruingSince == Long.MIN_VALUE || tokens == capacity) {
        accruingSince = now;
      } else if (now > accruingSince) {
        long gained = (now - accruingSince) / interval;
        tokens = Math.min(capacity, tokens + gained);
        accruingSince = tokens == capacity ? now : accruingSince + gained * interval;
      }
      if (tokens >= permits) {
        tokens -= permits;
        return Decision.allowed(tokens);
      }
      return denied((permits - tokens) * interval - (now - accruingSince), tokens);
    }
  }

  /** A log of the instants permits were taken; each counts for one window. */
  static final class Log extends LimitModel {
    private final int limit;
    private final long window;
    private final Deque<Long> taken = new ArrayDeque<>();

    Log(int limit, long window) {
      this.limit = limit;
      this.window = window;
    }

    @Override
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
      return denied(oldestNeeded + window - now, limit - count);
    }
  }

  /** GCRA: the theoretical arrival time moves by one interval per permit. */
  static final class Cell extends LimitModel {
    private final long interval;
    private final long tolerance;
    private long tat = Long.MIN_VALUE;

    Cell(long interval, long burst) {
      this.interval = interval;
      this.tolerance = interval * burst;
    }

    @Override
    Decision decide(long now, int permits) {
      long base = Math.max(tat, now);
      long next = base + permits * interval;
      if (now < next - tolerance) {
        return denied(next - tolerance - now, (now + tolerance - base) / interval);
      }
      tat = next;
      return Decision.allowed((now + tolerance - next) / interval);
    }
  }
}
