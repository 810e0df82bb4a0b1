package io.taskq.dashboard;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What the dashboard answers: a status, headers (the security headers among them) and a body, for
 * the adapter to write out as is. Headers are single-valued; there is at most one {@code
 * Set-Cookie}.
 */
public final class DashboardResponse {
  private final int status;
  private final Map<String, String> headers;
  private final byte[] body;

  /**
   * A response.
   *
   * @param status the HTTP status, 100..599
   * @param headers header name to value, in order
   * @param body the body bytes
   * @throws IllegalArgumentException when {@code status} is outside 100..599
   */
  public DashboardResponse(int status, Map<String, String> headers, byte[] body) {
    if (status < 100 || status > 599) {
      throw new IllegalArgumentException("status must be in 100..599, was " + status);
    }
    this.status = status;
    this.headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    this.body = body.clone();
  }

  /**
   * A response with a UTF-8 text body of the given content type.
   *
   * @param status the HTTP status
   * @param contentType the {@code Content-Type} header's value
   * @param body the body text, sent as UTF-8
   * @return the response
   */
  public static DashboardResponse text(int status, String contentType, String body) {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Content-Type", contentType);
    return new DashboardResponse(status, headers, body.getBytes(StandardCharsets.UTF_8));
  }

  /** {@return the HTTP status} */
  public int status() {
    return status;
  }

  /** {@return the headers, in order} */
  public Map<String, String> headers() {
    return headers;
  }

  /** {@return the body bytes (a copy)} */
  public byte[] body() {
    return body.clone();
  }

  /** {@return the body as UTF-8 text} */
  public String bodyText() {
    return new String(body, StandardCharsets.UTF_8);
  }

  /**
   * This response with header {@code name} set to {@code value} (replacing any).
   *
   * @param name the header's name
   * @param value the header's value
   * @return a copy of this response with the header set
   */
  public DashboardResponse withHeader(String name, String value) {
    Map<String, String> copy = new LinkedHashMap<>(headers);
    copy.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
    return new DashboardResponse(status, copy, body);
  }

  /** Status and content type, never the body (it may hold payloads). */
  @Override
  public String toString() {
    return "DashboardResponse{status=" + status + ", type=" + headers.get("Content-Type") + "}";
  }
}
