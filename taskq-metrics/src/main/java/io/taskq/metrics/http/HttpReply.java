package io.taskq.metrics.http;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * What a handler answers: a status, a content type and a body, independent of any server.
 *
 * @param status the HTTP status code, 100..599
 * @param contentType the {@code Content-Type} header value
 * @param body the body text (UTF-8 on the wire)
 */
public record HttpReply(int status, String contentType, String body) {
  /** The content type of the JSON replies. */
  public static final String JSON = "application/json; charset=utf-8";

  /**
   * Validates the reply.
   *
   * @param status the HTTP status code, 100..599
   * @param contentType the {@code Content-Type} header value
   * @param body the body text (UTF-8 on the wire)
   * @throws IllegalArgumentException when {@code status} is outside 100..599
   */
  public HttpReply {
    Objects.requireNonNull(contentType, "contentType");
    Objects.requireNonNull(body, "body");
    if (status < 100 || status > 599) {
      throw new IllegalArgumentException("status must be in 100..599, was " + status);
    }
  }

  /** {@return the body as UTF-8 bytes} */
  public byte[] bodyBytes() {
    return body.getBytes(StandardCharsets.UTF_8);
  }
}
