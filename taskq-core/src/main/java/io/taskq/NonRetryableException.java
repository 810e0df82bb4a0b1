package io.taskq;

import org.jspecify.annotations.Nullable;

/**
 * Fails a job at once and for good: thrown from a handler or a {@link PayloadCodec}, it ends the
 * job {@code failed} after this attempt, whatever attempts its retry policy has left.
 *
 * <p>For failures that no retry can mend: a payload that does not map onto the handler's type (the
 * same bytes fail the same way on every attempt), a request the remote side refused for good. Any
 * other exception fails only the attempt, and the job retries through its stamped policy (L3).
 *
 * <p>As for every failure, the attempt records the exception's class name as its {@code
 * error_class} (so a subclass names itself there: {@code io.taskq.jackson.PayloadMappingException},
 * say), its message and its stack trace. Only the exception the handler or codec throws counts: one
 * wrapped as the cause of another exception does not stop the retries.
 */
public class NonRetryableException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * A failure that no further attempt can mend, described by {@code message}.
   *
   * @param message what failed
   */
  public NonRetryableException(String message) {
    super(message);
  }

  /**
   * A failure that no further attempt can mend, described by {@code message}, caused by {@code
   * cause}.
   *
   * @param message what failed
   * @param cause the underlying failure, or {@code null}
   */
  public NonRetryableException(String message, @Nullable Throwable cause) {
    super(message, cause);
  }
}
