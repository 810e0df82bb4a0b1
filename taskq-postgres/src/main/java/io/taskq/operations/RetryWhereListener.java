package io.taskq.operations;

/**
 * Told after each committed batch of a bulk retry, on the calling thread (a CLI's progress bar,
 * say). It should return quickly; an exception it throws ends the operation, and everything
 * committed so far stays.
 */
@FunctionalInterface
public interface RetryWhereListener {
  /** A listener that ignores progress. */
  RetryWhereListener NONE = progress -> {};

  /**
   * One more batch committed.
   *
   * @param progress the totals so far
   */
  void onBatch(RetryWhereProgress progress);
}
