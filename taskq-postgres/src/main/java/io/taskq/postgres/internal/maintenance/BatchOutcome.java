package io.taskq.postgres.internal.maintenance;

/**
 * What one batch call did.
 *
 * @param rows rows the committed batch acted on; 0 when aborted
 * @param aborted true when the batch's statement timeout aborted it (nothing committed)
 */
record BatchOutcome(int rows, boolean aborted) {
  static BatchOutcome committed(int rows) {
    return new BatchOutcome(rows, false);
  }

  static BatchOutcome abortedBatch() {
    return new BatchOutcome(0, true);
  }

  /** Whether a drain should go on: the batch committed and found rows. */
  boolean foundRows() {
    return !aborted && rows > 0;
  }
}
