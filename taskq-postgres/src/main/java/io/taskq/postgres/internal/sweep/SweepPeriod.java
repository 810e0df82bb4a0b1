package io.taskq.postgres.internal.sweep;

import java.time.Duration;
import java.util.Objects;

/**
 * An age a sweep compares rows against ({@code statement_timestamp() - period}), validated once at
 * construction and bound into SQL as whole microseconds.
 *
 * <p>Periods are capped at {@link #MAX} so that a period times the reclaim-slice factor of S8 still
 * fits a {@code bigint} of microseconds and a PostgreSQL interval.
 *
 * @param knob the setting the value came from, named in errors (e.g. {@code
 *     TASKQ_EVENT_RETENTION_PERIOD})
 * @param value the period; zero only where the knob allows it (it then disables the sweep)
 */
public record SweepPeriod(String knob, Duration value) {
  /** The longest accepted period: 100 years (36 500 days). */
  public static final Duration MAX = Duration.ofDays(36_500);

  /** Validates; use {@link #positive} or {@link #zeroDisables}. */
  public SweepPeriod {
    Objects.requireNonNull(knob, "knob");
    Objects.requireNonNull(value, knob);
    if (value.isNegative() || value.compareTo(MAX) > 0) {
      throw new IllegalArgumentException(
          knob + " must be between 0 and " + MAX.toDays() + " days, was " + value);
    }
  }

  /**
   * A period that must be above zero.
   *
   * @throws IllegalArgumentException naming {@code knob} when {@code value} is zero, negative or
   *     above 36 500 days
   */
  public static SweepPeriod positive(String knob, Duration value) {
    SweepPeriod period = new SweepPeriod(knob, value);
    if (period.disabled()) {
      throw new IllegalArgumentException(
          knob + " must be above zero and at most " + MAX.toDays() + " days, was " + value);
    }
    return period;
  }

  /**
   * A period where zero disables the sweep (S8's retention, S9's reclaim period).
   *
   * @throws IllegalArgumentException naming {@code knob} when {@code value} is negative or above 36
   *     500 days
   */
  public static SweepPeriod zeroDisables(String knob, Duration value) {
    return new SweepPeriod(knob, value);
  }

  /** True when the period is zero: the sweep does nothing. */
  public boolean disabled() {
    return value.isZero();
  }

  /** The period in whole microseconds (sub-microsecond parts are dropped). */
  public long micros() {
    return Math.addExact(
        Math.multiplyExact(value.getSeconds(), 1_000_000L), value.getNano() / 1000);
  }
}
