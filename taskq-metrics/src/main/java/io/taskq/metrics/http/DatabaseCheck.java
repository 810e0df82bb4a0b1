package io.taskq.metrics.http;

/**
 * Whether the database is reachable, for {@code /ready}. The PostgreSQL store supplies one (a
 * {@code SELECT 1} under a short timeout on a pooled connection).
 */
@FunctionalInterface
public interface DatabaseCheck {
  /** A check that always passes, for processes without a database check. */
  DatabaseCheck NONE = () -> {};

  /**
   * Returns normally when the database answered.
   *
   * @throws Exception when it did not; the message is never shown in the reply
   */
  void ping() throws Exception;

  /**
   * This check with a wall-clock bound (R1): {@link #ping()} fails with a {@link
   * java.util.concurrent.TimeoutException} once {@code budget} has passed, even when the database
   * is frozen and the check itself would wait for minutes; while a stuck check is still running,
   * the next ping fails at once.
   *
   * @param budget how long a ping may take
   * @return the bounded check
   */
  default DatabaseCheck bounded(java.time.Duration budget) {
    return new BoundedDatabaseCheck(this, budget);
  }
}
