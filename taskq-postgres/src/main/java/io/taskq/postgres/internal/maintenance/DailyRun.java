package io.taskq.postgres.internal.maintenance;

import io.taskq.core.internal.AdvisoryLockName.Purpose;
import io.taskq.core.internal.config.Knob;
import io.taskq.core.internal.config.KnobCatalog;
import java.time.LocalTime;
import java.util.function.Function;

/**
 * A daily sweep's UTC run time knob and its own advisory lock (S11, M1): the daily column of {@link
 * SweepCatalog}.
 */
@SuppressWarnings("ImmutableEnumChecker") // final fields: a knob constant, a method reference
public enum DailyRun {
  /** {@code TASKQ_PRUNE_TIME}, under {@code taskq:prune:{schema}}. */
  PRUNE(KnobCatalog.PRUNE_TIME, Purpose.PRUNE, s -> s.sweeps().pruneTime()),
  /** {@code TASKQ_ARCHIVE_EXPIRY_TIME}, under {@code taskq:archive_expiry:{schema}}. */
  ARCHIVE_EXPIRY(
      KnobCatalog.ARCHIVE_EXPIRY_TIME, Purpose.ARCHIVE_EXPIRY, s -> s.sweeps().archiveExpiryTime());

  private final Knob<LocalTime> knob;
  private final Purpose lock;
  private final Function<MaintenanceSettings, LocalTime> value;

  DailyRun(Knob<LocalTime> knob, Purpose lock, Function<MaintenanceSettings, LocalTime> value) {
    this.knob = knob;
    this.lock = lock;
    this.value = value;
  }

  /** The knob of the run time. */
  public Knob<LocalTime> knob() {
    return knob;
  }

  /** The sweep's own lock, taken by each of its batches besides the leader fence. */
  public Purpose lock() {
    return lock;
  }

  /** The UTC run time under {@code settings}. */
  public LocalTime at(MaintenanceSettings settings) {
    return value.apply(settings);
  }
}
