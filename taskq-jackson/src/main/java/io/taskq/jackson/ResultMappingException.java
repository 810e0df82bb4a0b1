package io.taskq.jackson;

import io.taskq.NonRetryableException;

/**
 * A handler's result cannot be written as JSON by the application's mapper (no serializer for its
 * type, a getter that threw, a cycle), or a stored result cannot be read back as the type asked
 * for.
 *
 * <p>When {@link JacksonCodec#encode(Object)} throws it, the handler has already run: another
 * attempt would repeat its work and end the same way, so the job fails at once and for good ({@link
 * NonRetryableException}), with {@code error_class} {@code
 * io.taskq.jackson.ResultMappingException}.
 */
public final class ResultMappingException extends NonRetryableException {
  private static final long serialVersionUID = 1L;

  /**
   * The result does not map, for the reason in {@code message}, found by Jackson as {@code cause}.
   *
   * @param message what does not map and why (the type, Jackson's reason, the path)
   * @param cause Jackson's exception
   */
  public ResultMappingException(String message, Throwable cause) {
    super(message, cause);
  }
}
