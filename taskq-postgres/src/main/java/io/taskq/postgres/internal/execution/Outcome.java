package io.taskq.postgres.internal.execution;

import io.taskq.core.internal.TextBoundary;
import org.jspecify.annotations.Nullable;

/**
 * What one handler run did: returned (with the result's JSON text, or none) or threw (the error's
 * class, message and stack trace, already sanitised for storage, F6).
 */
public record Outcome(
    boolean succeeded,
    @Nullable String result,
    @Nullable String errorClass,
    @Nullable String errorMessage,
    @Nullable String errorStack) {
  /** The {@code error_class} of a result that cannot be stored as JSON. */
  public static final String INVALID_RESULT = "InvalidResult";

  /** The handler returned; {@code resultJson} is the encoded result or null for none. */
  public static Outcome succeeded(@Nullable String resultJson) {
    return new Outcome(true, resultJson, null, null, null);
  }

  /** The handler (or the codec) threw {@code error}. */
  public static Outcome failed(Throwable error) {
    return new Outcome(
        false,
        null,
        error.getClass().getName(),
        TextBoundary.errorMessage(error),
        TextBoundary.stackTrace(error));
  }

  /** A failure that no exception describes (the database refused the result, for one). */
  public static Outcome failed(String errorClass, String message) {
    return new Outcome(
        false,
        null,
        errorClass,
        TextBoundary.bounded(TextBoundary.escapeNul(message), TextBoundary.MAX_MESSAGE_CHARS),
        null);
  }
}
