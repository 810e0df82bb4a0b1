package io.taskq.spring.boot;

import io.taskq.dashboard.Dashboard;
import io.taskq.dashboard.DashboardRequest;
import io.taskq.dashboard.DashboardResponse;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Enumeration;

/**
 * The TaskQ dashboard inside the application's servlet container (SB6): each request below the
 * mount path becomes a {@link DashboardRequest}, and the {@link DashboardResponse} (its security
 * headers included) is written out as is. A body over {@link DashboardRequest#MAX_BODY_BYTES} is
 * refused with 413.
 */
final class TaskQDashboardServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;

  @SuppressWarnings("serial") // never serialized: the container holds it for the context's life
  private final Dashboard dashboard;

  TaskQDashboardServlet(Dashboard dashboard) {
    this.dashboard = dashboard;
  }

  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    byte[] body = readBody(request.getInputStream());
    if (body.length > DashboardRequest.MAX_BODY_BYTES) {
      write(
          response, DashboardResponse.text(413, "text/plain; charset=utf-8", "too large\n"), false);
      return;
    }
    write(
        response, dashboard.handle(toDashboard(request, body)), "HEAD".equals(request.getMethod()));
  }

  private static DashboardRequest toDashboard(HttpServletRequest request, byte[] body) {
    String path = request.getPathInfo();
    String query = request.getQueryString();
    DashboardRequest.Builder b =
        DashboardRequest.builder(request.getMethod(), path == null || path.isEmpty() ? "/" : path)
            .rawQuery(query == null ? "" : query)
            .body(body)
            .secure(request.isSecure());
    Enumeration<String> names = request.getHeaderNames();
    while (names.hasMoreElements()) {
      String name = names.nextElement();
      String value = request.getHeader(name);
      if (value != null) {
        b.header(name, value);
      }
    }
    return b.build();
  }

  private static byte[] readBody(InputStream in) throws IOException {
    try (in) {
      return in.readNBytes(DashboardRequest.MAX_BODY_BYTES + 1);
    }
  }

  private static void write(HttpServletResponse response, DashboardResponse answer, boolean head)
      throws IOException {
    response.setStatus(answer.status());
    answer.headers().forEach(response::setHeader);
    byte[] body = answer.body();
    response.setContentLength(body.length);
    if (!head && body.length > 0) {
      try (OutputStream out = response.getOutputStream()) {
        out.write(body);
      }
    }
  }
}
