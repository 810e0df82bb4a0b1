package io.taskq.postgres.internal.dispatch;

import java.time.Duration;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Decides when the dispatcher claims, and how many jobs: the worker's handler slots plus what it
 * knows about due work.
 *
 * <p>The dispatcher claims when a slot is free and there may be due work. "May be due" becomes true
 * on a wake notification (D11), when the poll interval passed without a claim (the fallback), when
 * a retry this worker scheduled falls due, and after a claim that came back full (more may be
 * waiting). It becomes false after a claim that came back short: nothing more is due until
 * something says otherwise, so a finished handler does not by itself cause an empty claim.
 *
 * <p>A claim takes at most {@code min(free slots, claim batch size)} jobs, and only when at least
 * one slot is free (back-pressure: the worker never holds more jobs than it has slots, and a claim
 * never asks for 0 or fewer). The slots are the handler slots plus a <em>look-ahead</em>: as many
 * jobs as the handlers are expected to finish during one claim's round trip ({@code handler slots x
 * claim round trip / handler run time}, from moving averages of both, capped at {@code
 * maxLookahead}). Short jobs are then claimed while the handlers still run the previous batch, and
 * wait for a free handler in claim order, so a busy worker does not idle for every round trip; long
 * jobs get no look-ahead at all (nothing would finish during a round trip), so a worker never sits
 * on jobs that idle workers could run. Until both averages are known there is none either. While
 * handlers are busy and fewer slots than a full batch are free, the gate waits up to the gather
 * time for more to free up: short jobs are then claimed in full batches rather than one by one,
 * which is what keeps the write transactions per job low. An idle worker never waits, so pickup
 * latency does not pay for it.
 *
 * <p>Thread-safe; one lock guards all state. Times are the JVM's monotonic clock, used only to
 * schedule the next look at the database, never stored.
 */
public final class ClaimGate {
  static final int MAX_DUE_TIMES = 10_000;

  /**
   * Added to every due time: callers pass whole milliseconds, truncated ({@code
   * Duration.toMillis()}) or rounded ({@code ::bigint}) from the database's microseconds, so
   * without it the claim could run up to a millisecond before the job's {@code run_at}, find
   * nothing, and leave the job to the next poll.
   */
  static final long DUE_MARGIN_MILLIS = 1;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final int capacity;
  private final int maxLookahead;
  private final int batchSize;
  private final int gatherTarget;
  private final long gatherNanos;
  private final long pollNanos;

  private int used;
  private boolean mayHaveWork = true;
  private long nextPollAt;
  private final PriorityQueue<Long> dueTimes = new PriorityQueue<>();
  private boolean stopped;
  private long roundTripNanos = -1;
  private long handlerRunNanos = -1;

  /** A gate without look-ahead: the worker holds at most {@code capacity} jobs. */
  public ClaimGate(int capacity, int batchSize, Duration gather, Duration pollInterval) {
    this(capacity, 0, batchSize, gather, pollInterval);
  }

  /**
   * @param capacity the handler slots
   * @param maxLookahead most jobs held beyond the handler slots
   */
  public ClaimGate(
      int capacity, int maxLookahead, int batchSize, Duration gather, Duration pollInterval) {
    this.capacity = capacity;
    this.maxLookahead = maxLookahead;
    this.batchSize = batchSize;
    this.gatherTarget = Math.min(capacity, batchSize);
    this.gatherNanos = gather.toNanos();
    this.pollNanos = pollInterval.toNanos();
    this.nextPollAt = System.nanoTime() + pollNanos;
  }

  /**
   * Blocks until a claim should be made, and reserves its slots.
   *
   * @return the number of slots reserved (the claim's limit), or 0 once the gate is stopped
   */
  public int awaitClaim() throws InterruptedException {
    lock.lock();
    try {
      while (!stopped) {
        long now = System.nanoTime();
        noteTimers(now);
        if (mayHaveWork && used < limit()) {
          gather(now);
          if (stopped) {
            break;
          }
          // Computed after the gathering wait, which let go of the lock: the look-ahead may have
          // shrunk meanwhile (a slow job finished), so there may be no slot left at all. Never
          // reserve 0 or fewer (0 means "stopped" to the dispatcher): wait for a slot instead.
          int free = limit() - used;
          if (free > 0) {
            int slots = Math.min(free, batchSize);
            used += slots;
            mayHaveWork = false;
            nextPollAt = System.nanoTime() + pollNanos;
            return slots;
          }
          continue;
        }
        changed.awaitNanos(nextTimer() - now);
      }
      return 0;
    } finally {
      lock.unlock();
    }
  }

  private void noteTimers(long now) {
    if (now - nextPollAt >= 0) {
      mayHaveWork = true;
      nextPollAt = now + pollNanos;
    }
    Long due = dueTimes.peek();
    while (due != null && now - due >= 0) {
      mayHaveWork = true;
      dueTimes.poll();
      due = dueTimes.peek();
    }
  }

  private long nextTimer() {
    Long due = dueTimes.peek();
    return due != null && due - nextPollAt < 0 ? due : nextPollAt;
  }

  private void gather(long start) throws InterruptedException {
    long until = start + gatherNanos;
    while (!stopped && used > 0 && limit() - used < gatherTarget) {
      long left = until - System.nanoTime();
      if (left <= 0) {
        return;
      }
      changed.awaitNanos(left);
    }
  }

  /** Slots: the handler slots plus the current look-ahead. Call under the lock. */
  private int limit() {
    if (maxLookahead == 0 || roundTripNanos < 0 || handlerRunNanos < 0) {
      return capacity;
    }
    double finishing = (double) capacity * roundTripNanos / Math.max(handlerRunNanos, 1_000);
    return capacity + (int) Math.min(maxLookahead, Math.floor(finishing));
  }

  /** The round trip of a claim statement that just returned, for the look-ahead. */
  public void noteClaimRoundTrip(long nanos) {
    lock.lock();
    try {
      int before = limit();
      roundTripNanos = average(roundTripNanos, nanos);
      signalIfGrown(before);
    } finally {
      lock.unlock();
    }
  }

  /** How long a handler slot was busy with one job, for the look-ahead. */
  public void noteHandlerRun(long nanos) {
    lock.lock();
    try {
      int before = limit();
      handlerRunNanos = average(handlerRunNanos, nanos);
      signalIfGrown(before);
    } finally {
      lock.unlock();
    }
  }

  /** A grown look-ahead frees slots: a claim waiting for one must look again. */
  private void signalIfGrown(int before) {
    if (limit() > before) {
      changed.signalAll();
    }
  }

  /** A moving average that follows a change within a few dozen samples. */
  private static long average(long current, long sample) {
    return current < 0 ? sample : current + (sample - current) / 8;
  }

  /** Records a claim's result: unused reservations return, and a full claim suggests more. */
  public void claimed(int reserved, int got) {
    lock.lock();
    try {
      used -= reserved - got;
      if (got >= reserved) {
        mayHaveWork = true;
      }
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** A claim failed: its reservations return and the next claim tries again. */
  public void claimFailed(int reserved) {
    lock.lock();
    try {
      used -= reserved;
      mayHaveWork = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** A handler finished (or never started): its slot is free again. */
  public void release() {
    lock.lock();
    try {
      used--;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Something may be due now: a wake notification, a reconnected listener. */
  public void wake() {
    lock.lock();
    try {
      mayHaveWork = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * A job this worker knows of falls due in {@code millis} (a retry it scheduled). At most {@value
   * #MAX_DUE_TIMES} such times are remembered; beyond that, polling finds the rest.
   */
  public void wakeIn(long millis) {
    long at =
        System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.max(0, millis) + DUE_MARGIN_MILLIS);
    lock.lock();
    try {
      if (dueTimes.size() < MAX_DUE_TIMES) {
        dueTimes.add(at);
        changed.signalAll();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Stops claiming: {@link #awaitClaim()} returns 0 from now on. */
  public void stop() {
    lock.lock();
    try {
      stopped = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits up to {@code timeout} or until {@link #stop()}.
   *
   * @return true when the gate is stopped
   */
  public boolean awaitStop(Duration timeout) throws InterruptedException {
    long until = System.nanoTime() + timeout.toNanos();
    lock.lock();
    try {
      while (!stopped) {
        long left = until - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        changed.awaitNanos(left);
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits until no slot is in use (every handler finished) or {@code timeout} passed.
   *
   * @return true when every slot is free
   */
  public boolean awaitIdle(Duration timeout) throws InterruptedException {
    long until = System.nanoTime() + timeout.toNanos();
    lock.lock();
    try {
      while (used > 0) {
        long left = until - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        changed.awaitNanos(left);
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** Slots in use: running handlers plus reservations of a claim in progress. */
  public int used() {
    lock.lock();
    try {
      return used;
    } finally {
      lock.unlock();
    }
  }
}
