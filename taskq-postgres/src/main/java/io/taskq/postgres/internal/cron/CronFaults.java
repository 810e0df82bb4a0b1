package io.taskq.postgres.internal.cron;

import io.taskq.postgres.internal.FaultSeam;

/**
 * The test-only fault seams of the cron tick (Q1): born disarmed, armed by tests to push a real
 * failure through the real tick.
 *
 * <ul>
 *   <li>{@link #insert()}: checked right before the tick's batched enqueue; a fault there is an
 *       insert-level failure, which rolls the whole tick back (F5);
 *   <li>{@link #plan()}: checked while planning each schedule, where a payload factory runs; a
 *       fault there fails that one schedule like a throwing factory would.
 * </ul>
 */
public final class CronFaults {
  private final FaultSeam insert = new FaultSeam("cron batched enqueue");
  private final FaultSeam plan = new FaultSeam("cron schedule planning");

  /** The seam before the batched enqueue. */
  public FaultSeam insert() {
    return insert;
  }

  /** The seam in each schedule's planning. */
  public FaultSeam plan() {
    return plan;
  }
}
