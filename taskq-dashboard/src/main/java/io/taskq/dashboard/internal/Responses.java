package io.taskq.dashboard.internal;

import io.taskq.dashboard.DashboardResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** The few kinds of answer the dashboard gives. */
public final class Responses {
  /** The content type of every page. */
  public static final String HTML = "text/html; charset=utf-8";

  private Responses() {}

  /** A rendered page. */
  public static DashboardResponse html(int status, String body) {
    return DashboardResponse.text(status, HTML, body);
  }

  /** A short plain-text answer (refusals, errors); {@code message} names the problem. */
  public static DashboardResponse plain(int status, String message) {
    return DashboardResponse.text(status, "text/plain; charset=utf-8", message + "\n");
  }

  /** 303 See Other to {@code location} (a path this dashboard built, never request input). */
  public static DashboardResponse redirect(String location) {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Location", location);
    headers.put("Content-Type", "text/plain; charset=utf-8");
    return new DashboardResponse(303, headers, "see other\n".getBytes(StandardCharsets.UTF_8));
  }
}
