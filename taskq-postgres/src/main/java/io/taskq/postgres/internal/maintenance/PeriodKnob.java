package io.taskq.postgres.internal.maintenance;

import io.taskq.core.internal.config.Knob;
import io.taskq.core.internal.config.KnobCatalog;
import io.taskq.postgres.internal.sweep.SweepPeriod;
import java.time.Duration;
import java.util.function.Function;

/**
 * The age a sweep compares rows against, and whether zero turns the sweep off: the period column of
 * {@link SweepCatalog}.
 */
@SuppressWarnings("ImmutableEnumChecker") // final fields: a knob constant, a method reference
public enum PeriodKnob {
  /** {@code TASKQ_WORKER_STALE_AFTER}, above zero (S6). */
  WORKER_STALE_AFTER(KnobCatalog.WORKER_STALE_AFTER, false, MaintenanceSettings::workerStaleAfter),
  /** {@code TASKQ_EVENT_RETENTION_PERIOD}; zero turns S8 off. */
  EVENT_RETENTION(KnobCatalog.EVENT_RETENTION_PERIOD, true, s -> s.sweeps().eventRetentionPeriod()),
  /** {@code TASKQ_KEYED_ROW_RECLAIM_PERIOD}; zero turns S9 off. */
  KEYED_ROW_RECLAIM(
      KnobCatalog.KEYED_ROW_RECLAIM_PERIOD, true, s -> s.sweeps().keyedRowReclaimPeriod()),
  /** {@code TASKQ_PRUNE_AFTER}, above zero (S11 prune). */
  PRUNE_AFTER(KnobCatalog.PRUNE_AFTER, false, s -> s.sweeps().pruneAfter()),
  /** {@code TASKQ_ARCHIVE_RETENTION}, above zero (S11 archive expiry). */
  ARCHIVE_RETENTION(KnobCatalog.ARCHIVE_RETENTION, false, s -> s.sweeps().archiveRetention());

  private final Knob<Duration> knob;
  private final boolean zeroDisables;
  private final Function<MaintenanceSettings, Duration> value;

  PeriodKnob(
      Knob<Duration> knob, boolean zeroDisables, Function<MaintenanceSettings, Duration> value) {
    this.knob = knob;
    this.zeroDisables = zeroDisables;
    this.value = value;
  }

  /** The knob the period is set by. */
  public Knob<Duration> knob() {
    return knob;
  }

  /**
   * {@code value} checked against this knob's rule.
   *
   * @throws IllegalArgumentException naming the knob when {@code value} is out of range
   */
  public SweepPeriod of(Duration value) {
    return zeroDisables
        ? SweepPeriod.zeroDisables(knob.envName(), value)
        : SweepPeriod.positive(knob.envName(), value);
  }

  SweepPeriod of(MaintenanceSettings settings) {
    return of(value.apply(settings));
  }
}
