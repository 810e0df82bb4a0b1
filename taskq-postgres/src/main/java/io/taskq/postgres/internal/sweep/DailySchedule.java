package io.taskq.postgres.internal.sweep;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.Objects;

/**
 * A time of day in UTC at which a {@link Cadence#DAILY} sweep runs (S11: prune at 03:00, archive
 * expiry at 04:00 by default).
 *
 * <p>UTC has no daylight-saving shifts, so every day has exactly one run instant and the schedule
 * never skips or doubles a run; the operator's zone plays no part. Time comes from an injected
 * {@link Clock}.
 */
public final class DailySchedule {
  private final LocalTime timeUtc;

  /**
   * A schedule at {@code timeUtc} every day.
   *
   * @throws NullPointerException when {@code timeUtc} is null
   */
  public DailySchedule(LocalTime timeUtc) {
    this.timeUtc = Objects.requireNonNull(timeUtc, "timeUtc");
  }

  /** The time of day, UTC. */
  public LocalTime timeUtc() {
    return timeUtc;
  }

  /** The first run instant strictly after {@code after}. */
  public Instant nextAfter(Instant after) {
    Instant today = at(after.atOffset(ZoneOffset.UTC).toLocalDate());
    return today.isAfter(after) ? today : at(dateOf(today).plusDays(1));
  }

  /** The first run instant strictly after the clock's current instant. */
  public Instant next(Clock clock) {
    return nextAfter(clock.instant());
  }

  /**
   * The latest run instant at or before {@code at}: a loop that last ran before it has a run due
   * (for instance after a leader failover across the scheduled time).
   */
  public Instant latestAtOrBefore(Instant at) {
    Instant today = at(at.atOffset(ZoneOffset.UTC).toLocalDate());
    return today.isAfter(at) ? at(dateOf(today).minusDays(1)) : today;
  }

  private Instant at(LocalDate date) {
    return date.atTime(timeUtc).toInstant(ZoneOffset.UTC);
  }

  private static LocalDate dateOf(Instant instant) {
    return instant.atOffset(ZoneOffset.UTC).toLocalDate();
  }

  @Override
  public String toString() {
    return "daily at " + timeUtc + " UTC";
  }
}
