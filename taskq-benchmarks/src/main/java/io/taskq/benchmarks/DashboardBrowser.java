package io.taskq.benchmarks;

import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One signed-in "browser" of the dashboard benchmarks: a cookie jar, same-origin form posts, a page
 * read only when it answers 200.
 */
final class DashboardBrowser {
  private static final Pattern CSRF = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"");

  private final HttpClient client =
      HttpClient.newBuilder()
          .cookieHandler(new CookieManager())
          .followRedirects(HttpClient.Redirect.NEVER)
          .build();
  private final URI base;
  private final String token;

  DashboardBrowser(URI base, String token) {
    this.base = base;
    this.token = token;
  }

  /** The page at {@code route} (from the dashboard's root); fails unless it answers 200. */
  String get(String route) throws Exception {
    HttpResponse<String> r =
        client.send(
            HttpRequest.newBuilder(base.resolve(route.substring(1))).GET().build(),
            HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw new IllegalStateException(route + " answered " + r.statusCode() + ": " + r.body());
    }
    return r.body();
  }

  /** Signs in with the token, as the sign-in form does. */
  void signIn() throws Exception {
    Matcher m = CSRF.matcher(get("/login"));
    if (!m.find()) {
      throw new IllegalStateException("no CSRF token on the sign-in page");
    }
    String form =
        "csrf="
            + URLEncoder.encode(m.group(1), StandardCharsets.UTF_8)
            + "&token="
            + URLEncoder.encode(token, StandardCharsets.UTF_8);
    HttpResponse<String> r =
        client.send(
            HttpRequest.newBuilder(base.resolve("login"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Origin", base.getScheme() + "://" + base.getRawAuthority())
                .POST(HttpRequest.BodyPublishers.ofString(form))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 303) {
      throw new IllegalStateException("sign-in answered " + r.statusCode());
    }
  }
}
