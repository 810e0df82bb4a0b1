package io.taskq.postgres.internal.execution;

import io.taskq.NonRetryableException;
import io.taskq.core.internal.TextBoundary;
import org.jspecify.annotations.Nullable;

/**
 * What one handler run did: returned (with the result's JSON text, or none) or threw (the error's
 * class, message and stack trace, already sanitised for storage, F6).
 *
 * @param retryable for a failure, whether the job may retry through its policy; false when the
 *     handler or codec threw a {@link NonRetryableException}, so the job fails for good
 */
public record Outcome(
    boolean succeeded,
    @Nullable String result,
    @Nullable String errorClass,
    @Nullable String errorMessage,
    @Nullable String errorStack,
    boolean retryable) {
  /** The {@code error_class} of a result that cannot be stored as JSON. */
  public static final String INVALID_RESULT = "InvalidResult";

  /** The {@code error_class} of an attempt that ran past its attempt timeout (A6). */
  public static final String ATTEMPT_TIMEOUT = "AttemptTimeout";

  /** The {@code error_class} of a job a handler discarded ({@code DiscardException}, A5). */
  public static final String DISCARDED = "Discarded";

  /**
   * The attempt ran past its timeout of {@code timeoutMillis} (A6): a retryable failure whose stack
   * is the handler thread's at the timeout (where it was stuck), when it was still inside the job.
   */
  public static Outcome timedOut(
      long timeoutMillis, int attempt, StackTraceElement @Nullable [] handlerStack) {
    String message =
        "attempt "
            + attempt
            + " ran past its attempt timeout of "
            + timeoutMillis
            + " ms; the handler was interrupted";
    String stack = null;
    if (handlerStack != null && handlerStack.length > 0) {
      StringBuilder out = new StringBuilder("the handler's thread at the timeout:");
      for (StackTraceElement frame : handlerStack) {
        out.append("\n\tat ").append(frame);
      }
      stack =
          TextBoundary.bounded(
              TextBoundary.escapeNul(out.toString()), TextBoundary.MAX_STACK_TRACE_CHARS);
    }
    return new Outcome(false, null, ATTEMPT_TIMEOUT, message, stack, true);
  }

  /** The handler returned; {@code resultJson} is the encoded result or null for none. */
  public static Outcome succeeded(@Nullable String resultJson) {
    return new Outcome(true, resultJson, null, null, null, true);
  }

  /** The handler (or the codec) threw {@code error}. */
  public static Outcome failed(Throwable error) {
    return new Outcome(
        false,
        null,
        error.getClass().getName(),
        TextBoundary.errorMessage(error),
        TextBoundary.stackTrace(error),
        !(error instanceof NonRetryableException));
  }

  /** A failure that no exception describes (the database refused the result, for one). */
  public static Outcome failed(String errorClass, String message) {
    return new Outcome(
        false,
        null,
        errorClass,
        TextBoundary.bounded(TextBoundary.escapeNul(message), TextBoundary.MAX_MESSAGE_CHARS),
        null,
        true);
  }
}
