package io.taskq.postgres.internal.sweep;

/**
 * How often the maintenance loops run a sweep, and how much of its backlog one run may consume
 * (guide §1, S14).
 */
public enum Cadence {
  /**
   * The leader sweep loop, every {@code TASKQ_SWEEP_INTERVAL}: one batch, and when it returned rows
   * more batches up to {@code TASKQ_SWEEP_DRAIN_BATCHES} in total (S1, S2, S4-S7).
   */
  DRAINED,
  /**
   * The leader sweep loop, every {@code TASKQ_SWEEP_INTERVAL}: exactly one batch, deliberately not
   * drained (slow and constant: S8 expired events, S9 idle keyed rows).
   */
  ONE_BATCH_PER_TICK,
  /**
   * Once a day at a configured UTC time, under its own advisory lock (S11 prune and archive
   * expiry). The run is still made of bounded committed batches: at most {@code
   * TASKQ_SWEEP_DRAIN_BATCHES} per sweep-loop tick until a batch comes back empty.
   */
  DAILY,
  /**
   * The 1-second loop: exactly one bounded batch per tick; a larger backlog drains across ticks (S3
   * scheduled-to-pending, later the cron tick).
   */
  EVERY_SECOND
}
