package io.taskq.bulk;

/**
 * Told after each committed batch of a bulk operation (D16), on the calling thread. It should
 * return quickly; an exception it throws ends the operation (everything committed so far stays).
 */
@FunctionalInterface
public interface BulkProgressListener {
  /** A listener that ignores progress. */
  BulkProgressListener NONE = progress -> {};

  /**
   * Called after each committed batch.
   *
   * @param progress the totals so far
   */
  void onBatch(BulkProgress progress);
}
