package io.taskq.postgres.internal.sweep;

/**
 * How the sweep loop schedules a {@link SweepBatch} (guide §1, S14).
 *
 * <p>Each sweep class publishes its cadence as a {@code CADENCE} constant beside its {@code NAME}
 * and {@code DEFAULT_BATCH_SIZE}, so the loop registers it without knowing the sweep.
 */
public enum SweepCadence {
  /**
   * Every {@code TASKQ_SWEEP_INTERVAL} tick: one batch, and when it returned rows, further batches
   * up to {@code TASKQ_SWEEP_DRAIN_BATCHES} in all; the rest waits for the next tick.
   */
  DRAINED,
  /**
   * Every {@code TASKQ_SWEEP_INTERVAL} tick: exactly one batch, never drained, so a backlog drains
   * slowly and constantly across ticks (S8, S9).
   */
  ONE_BATCH_PER_TICK,
  /**
   * Once a day at its UTC time (a {@link DailySchedule}): batches until one returns no rows, each
   * committed on its own (S11).
   */
  DAILY
}
