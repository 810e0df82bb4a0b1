package io.taskq.dashboard;

import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** A plain HTTP client with its own cookie jar: one "browser" for the request-level tests. */
final class Http {
  private static final Pattern CSRF =
      Pattern.compile("name=\"csrf\" (?:value|content)=\"([^\"]+)\"");

  private final HttpClient client =
      HttpClient.newBuilder()
          .cookieHandler(new CookieManager())
          .followRedirects(HttpClient.Redirect.NEVER)
          .build();
  private final DashboardFixture fixture;

  Http(DashboardFixture fixture) {
    this.fixture = fixture;
  }

  HttpResponse<String> get(String route) throws IOException, InterruptedException {
    return client.send(
        HttpRequest.newBuilder(fixture.uri(route)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** POSTs a form from this dashboard's own origin. */
  HttpResponse<String> post(String route, Map<String, String> form)
      throws IOException, InterruptedException {
    return post(route, form, Map.of("Origin", origin()));
  }

  HttpResponse<String> post(String route, Map<String, String> form, Map<String, String> headers)
      throws IOException, InterruptedException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(fixture.uri(route))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(encode(form)));
    headers.forEach(b::header);
    return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** The CSRF token of the page at {@code route}. */
  String csrf(String route) throws IOException, InterruptedException {
    Matcher m = CSRF.matcher(get(route).body());
    if (!m.find()) {
      throw new AssertionError("no CSRF token on " + route);
    }
    return m.group(1);
  }

  /** Signs in with the fixture's token. */
  void signIn() throws IOException, InterruptedException {
    String csrf = csrf("/login");
    HttpResponse<String> r = post("/login", Map.of("csrf", csrf, "token", DashboardFixture.TOKEN));
    if (r.statusCode() != 303) {
      throw new AssertionError("sign-in answered " + r.statusCode() + ": " + r.body());
    }
  }

  String origin() {
    URI u = fixture.root;
    return u.getScheme() + "://" + u.getRawAuthority();
  }

  private static String encode(Map<String, String> form) {
    return form.entrySet().stream()
        .map(
            e ->
                URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8)
                    + "="
                    + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
        .collect(Collectors.joining("&"));
  }
}
