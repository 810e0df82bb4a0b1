package io.taskq.postgres.internal.sweep;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A sweep together with how the loop runs it: its cadence, its batch size and, for a daily sweep,
 * its UTC schedule.
 *
 * @param sweep the batch to run
 * @param cadence drained, one batch per tick, or daily
 * @param batchSize the batch size passed to {@link SweepBatch#run}, at least 1
 * @param schedule the daily run time; present exactly when {@code cadence} is {@link
 *     SweepCadence#DAILY}
 */
public record SweepRegistration(
    SweepBatch sweep, SweepCadence cadence, int batchSize, @Nullable DailySchedule schedule) {
  /** Validates the pairing of cadence and schedule. */
  public SweepRegistration {
    Objects.requireNonNull(sweep, "sweep");
    Objects.requireNonNull(cadence, "cadence");
    if (batchSize < 1) {
      throw new IllegalArgumentException(
          sweep.sweepName() + ": batch size must be at least 1, was " + batchSize);
    }
    if ((cadence == SweepCadence.DAILY) != (schedule != null)) {
      throw new IllegalArgumentException(
          sweep.sweepName() + ": a daily schedule goes with the DAILY cadence, and only with it");
    }
  }

  /** The sweep's name in metrics and logs. */
  public String sweepName() {
    return sweep.sweepName();
  }
}
