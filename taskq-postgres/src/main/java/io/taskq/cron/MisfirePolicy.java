package io.taskq.cron;

import java.util.Locale;

/**
 * What a cron schedule does about fire times it missed while no cron loop ran (downtime) or while
 * its fires could not keep up ({@code docs/cron.md}).
 */
public enum MisfirePolicy {
  /**
   * One job for the whole missed stretch, then the next fire time after now: a schedule that missed
   * 40 fires during an outage fires once when the loop is back, not 40 times. The default.
   */
  FIRE_ONCE,
  /**
   * One job per missed fire time, oldest first, one per tick (second) until caught up; each job's
   * {@code taskq.cron.fire_at} label carries the fire time it stands for.
   */
  FIRE_ALL;

  /** {@return the value stored in {@code cron_schedules.misfire_policy}, e.g. {@code fire_once}} */
  public String dbValue() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * {@return the policy of a stored value, e.g. {@code fire_once}}
   *
   * @param value the stored value
   */
  public static MisfirePolicy fromDbValue(String value) {
    return valueOf(value.toUpperCase(Locale.ROOT));
  }
}
