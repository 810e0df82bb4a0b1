package io.taskq.postgres.internal.maintenance;

import java.sql.SQLException;
import java.time.Duration;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * Whether the maintenance sweeps can get connections from their pool, and what a leader that cannot
 * does (R2, R7): the chaos soak had a leader behind PgBouncer keep the lock on its healthy
 * direct-URL lock session while its pool, refused by the pooler, gave none of its sweeps a
 * connection, so nobody reclaimed, promoted or ran cron.
 *
 * <p>{@link WatchedPool} reports every acquisition: a connection obtained ends an outage, a failed
 * {@code getConnection()} starts one (at the moment it was asked for) or continues it. A sweep's
 * own statement error or timeout is not an outage: the pool gave the connection. An outage that has
 * lasted the {@linkplain #limit() limit} makes the leader give up the lock; it then holds off
 * campaigning until a probe of the pool gets a connection, or until the hold-off passes (the limit,
 * doubled at each further step-down of one outage, at most eight times the limit). An outage is
 * measured within one term of leadership ({@link #termStarted()}). Thread-safe: both loops report.
 */
final class PoolOutage {
  private static final long NONE = Long.MIN_VALUE;
  private static final int MAX_HOLD_OFF_DOUBLINGS = 3;

  private final Duration limit;
  private final LongSupplier nanoTime;
  private long since = NONE;
  private @Nullable SQLException last;
  private int stepDowns;
  private long holdOffUntil = NONE;
  private boolean reported;

  /**
   * @param limit how long the pool may fail every acquisition before the leader gives up the lock
   * @param nanoTime the monotonic clock
   */
  PoolOutage(Duration limit, LongSupplier nanoTime) {
    this.limit = limit;
    this.nanoTime = nanoTime;
  }

  /** How long an outage lasts before the leader gives up the lock. */
  Duration limit() {
    return limit;
  }

  /** The clock now, to stamp an acquisition before it is asked for. */
  long now() {
    return nanoTime.getAsLong();
  }

  /** The pool gave a connection: any outage is over. */
  synchronized void answered() {
    since = NONE;
    last = null;
    reported = false;
    stepDowns = 0;
    holdOffUntil = NONE;
  }

  /**
   * A new term of leadership starts: an outage is measured within one term, so a failure long ago,
   * before this process led again, does not count against the new term. The hold-off doubling is
   * kept until the pool answers.
   */
  synchronized void termStarted() {
    since = NONE;
    last = null;
    reported = false;
  }

  /**
   * An acquisition asked for at {@code askedAt} failed with {@code e}: an outage starts or goes on.
   */
  synchronized void refused(long askedAt, SQLException e) {
    last = e;
    if (since == NONE) {
      since = askedAt;
    }
  }

  /** Whether the pool has failed every acquisition for at least the limit. */
  synchronized boolean outlasted() {
    return since != NONE && nanoTime.getAsLong() - since >= limit.toNanos();
  }

  /** How long the current outage has lasted; zero when there is none. */
  synchronized Duration lasted() {
    return since == NONE ? Duration.ZERO : Duration.ofNanos(nanoTime.getAsLong() - since);
  }

  /** The last acquisition failure of the current outage, described for a log line. */
  synchronized String lastFailure() {
    SQLException e = last;
    return e == null ? "none" : e.getMessage() + " (SQLSTATE " + e.getSQLState() + ")";
  }

  /** True the first time it is asked during an outage: its one log line. */
  synchronized boolean firstReport() {
    boolean first = since != NONE && !reported;
    reported |= first;
    return first;
  }

  /** The hold-off the next step-down of this outage starts. */
  synchronized Duration nextHoldOff() {
    return limit.multipliedBy(1L << Math.min(stepDowns, MAX_HOLD_OFF_DOUBLINGS));
  }

  /**
   * The leader gave up the lock for this outage: starts the {@linkplain #nextHoldOff() hold-off}.
   */
  synchronized void steppedDown() {
    holdOffUntil = nanoTime.getAsLong() + nextHoldOff().toNanos();
    stepDowns++;
  }

  /** Whether a hold-off after a step-down is still running (the pool has not answered since). */
  synchronized boolean holdingOff() {
    if (holdOffUntil == NONE) {
      return false;
    }
    if (nanoTime.getAsLong() - holdOffUntil >= 0) {
      holdOffUntil = NONE;
      return false;
    }
    return true;
  }
}
