package io.taskq.dashboard;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One HTTP request as the dashboard sees it, independent of the server that received it.
 *
 * <p>The path is relative to where the dashboard is mounted ({@code /}, {@code /jobs/42}); the
 * adapter strips the mount prefix. Header names are matched without regard to case. A form body
 * ({@code application/x-www-form-urlencoded}) is parsed on demand; any other body is ignored.
 */
public final class DashboardRequest {
  /** The largest body the dashboard reads: forms are small, anything larger is refused. */
  public static final int MAX_BODY_BYTES = 64 * 1024;

  private static final Pattern SEMICOLON = Pattern.compile(";");
  private static final Pattern AMPERSAND = Pattern.compile("&");

  private final String method;
  private final String path;
  private final Map<String, List<String>> query;
  private final Map<String, String> headers;
  private final byte[] body;
  private final boolean secure;

  private DashboardRequest(Builder b) {
    this.method = b.method.toUpperCase(Locale.ROOT);
    this.path = b.path.isEmpty() ? "/" : b.path;
    this.query = parseForm(b.rawQuery);
    this.headers = Map.copyOf(b.headers);
    this.body = b.body.clone();
    this.secure = b.secure;
  }

  /**
   * A request builder.
   *
   * @return a builder of a request with {@code method} and {@code path}
   * @param method the HTTP method, e.g. {@code GET}
   * @param path the path below the mount point, starting with {@code /} (or empty for the root)
   */
  public static Builder builder(String method, String path) {
    return new Builder(method, path);
  }

  /** {@return the method in upper case} */
  public String method() {
    return method;
  }

  /** {@return the path below the mount point, starting with {@code /}} */
  public String path() {
    return path;
  }

  /**
   * The first value of query parameter {@code name}, if present and not empty.
   *
   * @param name the parameter's name
   * @return its first value, or empty
   */
  public Optional<String> query(String name) {
    return first(query, name);
  }

  /** {@return every query parameter in arrival order, first value each} */
  public Map<String, String> queryParameters() {
    Map<String, String> out = new LinkedHashMap<>();
    query.forEach((k, v) -> out.put(k, v.get(0)));
    return out;
  }

  /**
   * The value of header {@code name} (any case), if present.
   *
   * @param name the header's name, in any case
   * @return its value, or empty
   */
  public Optional<String> header(String name) {
    return Optional.ofNullable(headers.get(name.toLowerCase(Locale.ROOT)));
  }

  /**
   * Whether the request reached the server over TLS (sets the cookies' {@code Secure} flag).
   *
   * @return true over TLS
   */
  public boolean secure() {
    return secure;
  }

  /**
   * The first value of form field {@code name} from an urlencoded body, if present and not empty.
   *
   * @param name the field's name
   * @return its first value, or empty
   */
  public Optional<String> form(String name) {
    String type = header("Content-Type").orElse("");
    if (!type.toLowerCase(Locale.ROOT).startsWith("application/x-www-form-urlencoded")) {
      return Optional.empty();
    }
    return first(parseForm(new String(body, StandardCharsets.UTF_8)), name);
  }

  /**
   * The value of cookie {@code name}, if the {@code Cookie} header carries it.
   *
   * @param name the cookie's name
   * @return its value, or empty
   */
  public Optional<String> cookie(String name) {
    for (String part : SEMICOLON.split(header("Cookie").orElse(""), -1)) {
      int eq = part.indexOf('=');
      if (eq > 0 && part.substring(0, eq).trim().equals(name)) {
        return Optional.of(part.substring(eq + 1).trim());
      }
    }
    return Optional.empty();
  }

  private static Optional<String> first(Map<String, List<String>> values, String name) {
    List<String> found = values.get(name);
    if (found == null || found.get(0).isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(found.get(0));
  }

  private static Map<String, List<String>> parseForm(String text) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    if (text.isEmpty()) {
      return out;
    }
    for (String pair : AMPERSAND.split(text, -1)) {
      int eq = pair.indexOf('=');
      String key = decode(eq < 0 ? pair : pair.substring(0, eq));
      String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
      out.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
    }
    return out;
  }

  private static String decode(String text) {
    try {
      return URLDecoder.decode(text, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return "";
    }
  }

  /** Builds a {@link DashboardRequest}. */
  public static final class Builder {
    private final String method;
    private final String path;
    private String rawQuery = "";
    private final Map<String, String> headers = new LinkedHashMap<>();
    private byte[] body = new byte[0];
    private boolean secure;

    private Builder(String method, String path) {
      this.method = Objects.requireNonNull(method, "method");
      this.path = Objects.requireNonNull(path, "path");
      if (!path.isEmpty() && !path.startsWith("/")) {
        throw new IllegalArgumentException("path must start with /, was " + path);
      }
    }

    /**
     * The raw (still encoded) query string, without the {@code ?}; empty for none.
     *
     * @param rawQuery the encoded query string
     * @return this builder
     */
    public Builder rawQuery(String rawQuery) {
      this.rawQuery = Objects.requireNonNull(rawQuery, "rawQuery");
      return this;
    }

    /**
     * Adds a header; a repeated name keeps the first value.
     *
     * @param name the header's name
     * @param value the header's value
     * @return this builder
     */
    public Builder header(String name, String value) {
      headers.putIfAbsent(name.toLowerCase(Locale.ROOT), Objects.requireNonNull(value, name));
      return this;
    }

    /**
     * The body bytes.
     *
     * @param body the request body
     * @return this builder
     * @throws IllegalArgumentException when longer than {@link #MAX_BODY_BYTES}
     */
    public Builder body(byte[] body) {
      if (body.length > MAX_BODY_BYTES) {
        throw new IllegalArgumentException(
            "body of " + body.length + " bytes exceeds " + MAX_BODY_BYTES);
      }
      this.body = body.clone();
      return this;
    }

    /**
     * Whether the request arrived over TLS. Default: false.
     *
     * @param secure true when the request arrived over TLS
     * @return this builder
     */
    public Builder secure(boolean secure) {
      this.secure = secure;
      return this;
    }

    /**
     * The request.
     *
     * @return a request with this builder's values
     */
    public DashboardRequest build() {
      return new DashboardRequest(this);
    }
  }
}
