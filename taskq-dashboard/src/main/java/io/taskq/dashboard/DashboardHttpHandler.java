package io.taskq.dashboard;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpsExchange;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Mounts a {@link Dashboard} on the JDK's built-in HTTP server, at its settings' path:
 *
 * <pre>{@code
 * HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 8080), 0);
 * server.createContext(dashboard.settings().path(), new DashboardHttpHandler(dashboard));
 * }</pre>
 *
 * <p>Beside other contexts of the same server ({@code /ready}, {@code /metrics}) it answers only
 * below its own path. A body larger than {@link DashboardRequest#MAX_BODY_BYTES} is refused with
 * 413 unread.
 */
public final class DashboardHttpHandler implements HttpHandler {
  private final Dashboard dashboard;
  private final String mount;

  /**
   * A handler serving {@code dashboard} under {@code dashboard.settings().path()}.
   *
   * @param dashboard the dashboard to serve
   */
  public DashboardHttpHandler(Dashboard dashboard) {
    this.dashboard = Objects.requireNonNull(dashboard, "dashboard");
    String path = dashboard.settings().path();
    this.mount = path.equals("/") ? "" : path;
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getRawPath();
      if (!path.equals(mount) && !path.startsWith(mount + "/")) {
        send(exchange, DashboardResponse.text(404, "text/plain; charset=utf-8", "not found\n"));
        return;
      }
      byte[] body = readBody(exchange.getRequestBody());
      if (body.length > DashboardRequest.MAX_BODY_BYTES) {
        send(exchange, DashboardResponse.text(413, "text/plain; charset=utf-8", "too large\n"));
        return;
      }
      send(exchange, dashboard.handle(request(exchange, path.substring(mount.length()), body)));
    }
  }

  private static DashboardRequest request(HttpExchange exchange, String path, byte[] body) {
    String query = exchange.getRequestURI().getRawQuery();
    DashboardRequest.Builder b =
        DashboardRequest.builder(exchange.getRequestMethod(), path)
            .rawQuery(query == null ? "" : query)
            .body(body)
            .secure(exchange instanceof HttpsExchange);
    for (Map.Entry<String, List<String>> h : exchange.getRequestHeaders().entrySet()) {
      if (!h.getValue().isEmpty()) {
        b.header(h.getKey(), h.getValue().get(0));
      }
    }
    return b.build();
  }

  private static byte[] readBody(InputStream in) throws IOException {
    try (in) {
      return in.readNBytes(DashboardRequest.MAX_BODY_BYTES + 1);
    }
  }

  private static void send(HttpExchange exchange, DashboardResponse response) throws IOException {
    boolean head = exchange.getRequestMethod().equalsIgnoreCase("HEAD");
    response.headers().forEach((k, v) -> exchange.getResponseHeaders().set(k, v));
    byte[] body = response.body();
    exchange.sendResponseHeaders(response.status(), head || body.length == 0 ? -1 : body.length);
    if (!head && body.length > 0) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }
}
