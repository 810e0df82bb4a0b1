package io.taskq.metrics.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Mounts an {@link EndpointHandler} on the JDK server: GET and HEAD only (405 otherwise), exact
 * path only (the JDK matches contexts by prefix, so {@code /ready/x} would otherwise answer as
 * {@code /ready}).
 */
final class ExchangeAdapter implements HttpHandler {
  private final String path;
  private final EndpointHandler handler;

  ExchangeAdapter(String path, EndpointHandler handler) {
    this.path = path;
    this.handler = handler;
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String method = exchange.getRequestMethod();
      boolean head = method.equals("HEAD");
      HttpReply reply;
      if (!exchange.getRequestURI().getPath().equals(path)) {
        reply = new HttpReply(404, "text/plain; charset=utf-8", "not found\n");
      } else if (!head && !method.equals("GET")) {
        exchange.getResponseHeaders().set("Allow", "GET, HEAD");
        reply = new HttpReply(405, "text/plain; charset=utf-8", "method not allowed\n");
      } else {
        reply = respond();
      }
      send(exchange, reply, head);
    }
  }

  private HttpReply respond() {
    try {
      return handler.respond();
    } catch (RuntimeException e) {
      return new HttpReply(500, "text/plain; charset=utf-8", "internal error\n");
    }
  }

  private static void send(HttpExchange exchange, HttpReply reply, boolean head)
      throws IOException {
    byte[] body = reply.body().getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", reply.contentType());
    exchange.getResponseHeaders().set("Cache-Control", "no-store");
    exchange.sendResponseHeaders(reply.status(), head ? -1 : body.length);
    if (!head) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }
}
