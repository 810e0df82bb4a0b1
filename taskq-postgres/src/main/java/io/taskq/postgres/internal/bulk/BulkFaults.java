package io.taskq.postgres.internal.bulk;

import io.taskq.postgres.internal.FaultSeam;

/**
 * Test-only fault injection points inside the real bulk drain (Q1), born disarmed; see {@link
 * FaultSeam}. Each client owns its seams, so tests running side by side cannot disturb each other.
 */
public final class BulkFaults {
  private final FaultSeam batch = new FaultSeam("bulk.batch");
  private final FaultSeam deadlock = new FaultSeam("bulk.deadlock", FaultSeam.DEADLOCK);

  /**
   * Checked at the start of each batch transaction, before its statement: a fabricated connection
   * failure (08006) that ends the operation, as a real one would (no retry: F1).
   */
  public FaultSeam batch() {
    return batch;
  }

  /**
   * Checked after each batch's statement ran and before its commit: a fabricated deadlock (40P01)
   * that rolls the batch back (its cancellations and event rows with it) and is retried (F3).
   */
  public FaultSeam deadlock() {
    return deadlock;
  }
}
