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
}
