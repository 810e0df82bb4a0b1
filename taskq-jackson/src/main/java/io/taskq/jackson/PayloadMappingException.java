package io.taskq.jackson;

import io.taskq.NonRetryableException;

/**
 * A job's payload does not map onto its handler's payload type: a field the type does not know
 * (with the mapper failing on unknown properties), a missing creator property, a value of the wrong
 * shape, a creator that refused the value.
 *
 * <p>Thrown by {@link JacksonCodec#decode(String)} on the handler's thread, before the handler
 * runs. The same stored payload fails the same way on every attempt, so this is a {@link
 * NonRetryableException}: the job fails at once and for good, with {@code error_class} {@code
 * io.taskq.jackson.PayloadMappingException} and a message naming the type, Jackson's reason and the
 * path in the document (never the payload's values). Retry it by hand once a deploy has fixed the
 * type.
 */
public final class PayloadMappingException extends NonRetryableException {
  private static final long serialVersionUID = 1L;

  /**
   * The payload does not map, for the reason in {@code message}, found by Jackson as {@code cause}.
   *
   * @param message what does not map and why (the type, Jackson's reason, the path)
   * @param cause Jackson's exception
   */
  public PayloadMappingException(String message, Throwable cause) {
    super(message, cause);
  }
}
