package io.taskq.dashboard.internal;

import io.taskq.dashboard.DashboardResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The style sheet and the script, served from the jar (no CDN, nothing fetched at run time). Only
 * the named files are served: the path is looked up in a fixed table, never joined to a resource
 * path.
 */
final class Assets {
  private static final Map<String, String> TYPES =
      Map.of(
          "/assets/dashboard.css", "text/css; charset=utf-8",
          "/assets/dashboard.js", "text/javascript; charset=utf-8",
          "/assets/favicon.svg", "image/svg+xml");

  private final Map<String, byte[]> bodies = new LinkedHashMap<>();

  Assets() {
    for (String path : TYPES.keySet()) {
      bodies.put(path, load("io/taskq/dashboard" + path));
    }
  }

  /** The asset at {@code path}, or empty when there is none. */
  Optional<DashboardResponse> get(String path) {
    byte[] body = bodies.get(path);
    if (body == null) {
      return Optional.empty();
    }
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Content-Type", TYPES.get(path));
    return Optional.of(new DashboardResponse(200, headers, body));
  }

  private static byte[] load(String resource) {
    try (InputStream in = Assets.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("the dashboard jar lacks " + resource);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + resource, e);
    }
  }
}
