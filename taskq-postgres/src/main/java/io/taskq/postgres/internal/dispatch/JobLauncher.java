package io.taskq.postgres.internal.dispatch;

/**
 * Starts the handler of a claimed job. The claim already reserved a handler slot for it; the
 * launcher hands the slot back through the gate when the handler finishes, or at once when the job
 * could not be started (its lease is then released so another worker can take it).
 */
@FunctionalInterface
public interface JobLauncher {
  /**
   * Starts {@code job}'s handler.
   *
   * @return false when the job could not be started (the handler executor refused it)
   */
  boolean launch(ClaimedJob job);
}
