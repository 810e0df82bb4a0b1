package io.taskq.postgres.internal.sweep;

/**
 * An optional companion of {@link SweepBatch} for sweeps that report something about the rows a
 * batch changed (S1's {@code taskq.jobs.reclaimed} counts): the report must only leave once the
 * batch has committed, never for a batch that rolled back (O5, B5).
 *
 * <p>The executor calls exactly one of the two methods after every {@link SweepBatch#run} that
 * returned normally or threw.
 */
public interface CommitAware {
  /** The batch committed: publish what it did. */
  void afterCommit();

  /** The batch rolled back (or its outcome is unknown): forget what it did. */
  void afterRollback();
}
