package io.taskq.postgres.internal;

import java.io.ByteArrayOutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import org.jspecify.annotations.Nullable;

/**
 * A {@code jdbc:postgresql:} URL as TaskQ hands it to PgJDBC (R3): a user-info part ({@code
 * jdbc:postgresql://user:secret@host/db}) is taken out of the URL and becomes the {@code user} and
 * {@code password} driver properties. PgJDBC itself does not read user-info: it would take {@code
 * user:secret@host} for a host name, and then print it, password included, in its connection
 * errors. The user-info is percent-decoded ({@code p%40ss} is {@code p@ss}), as in any URI. A
 * {@code ?password=} parameter leaves the URL as well (HikariCP and PgJDBC print the URL in their
 * DEBUG and FINE lines) and becomes the {@code password} property; a user-info password wins over
 * it.
 *
 * <p>The URL's own user-info wins over {@code TASKQ_DATABASE_USER} / {@code
 * TASKQ_DATABASE_PASSWORD}: it is the more specific setting (the direct URL may log in as another
 * role than the pooled one).
 *
 * @param url the URL without user-info: safe to log, to pass to HikariCP and to PgJDBC
 * @param user the user-info's user, or null when the URL has none
 * @param password the user-info's password, else the {@code password} parameter's; null when the
 *     URL has neither
 */
public record JdbcTarget(String url, @Nullable String user, @Nullable String password) {
  private static final String PREFIX = "jdbc:postgresql://";

  /**
   * Splits {@code jdbcUrl}.
   *
   * @param setting the variable the URL comes from, named in errors
   * @throws IllegalArgumentException naming {@code setting} (never the user-info) when the
   *     user-info has a malformed percent escape or an empty user
   */
  public static JdbcTarget of(String jdbcUrl, String setting) {
    if (!jdbcUrl.regionMatches(true, 0, PREFIX, 0, PREFIX.length())) {
      return new JdbcTarget(jdbcUrl, null, null);
    }
    return withoutUserInfo(jdbcUrl, setting).withoutPasswordParameter();
  }

  /** The user-info before the host, when there is one, taken out of the URL and decoded. */
  private static JdbcTarget withoutUserInfo(String jdbcUrl, String setting) {
    int start = PREFIX.length();
    int end = start;
    while (end < jdbcUrl.length() && "/?#".indexOf(jdbcUrl.charAt(end)) < 0) {
      end++;
    }
    int at = jdbcUrl.lastIndexOf('@', end - 1);
    if (at < start) {
      return new JdbcTarget(jdbcUrl, null, null);
    }
    String userInfo = jdbcUrl.substring(start, at);
    int colon = userInfo.indexOf(':');
    String user = decode(colon < 0 ? userInfo : userInfo.substring(0, colon), setting, "user");
    String password = colon < 0 ? null : decode(userInfo.substring(colon + 1), setting, "password");
    if (user.isEmpty()) {
      throw new IllegalArgumentException(
          setting
              + " has user-info without a user name before '@': write"
              + " jdbc:postgresql://user:password@host/db, or set TASKQ_DATABASE_USER and"
              + " TASKQ_DATABASE_PASSWORD");
    }
    return new JdbcTarget(jdbcUrl.substring(0, start) + jdbcUrl.substring(at + 1), user, password);
  }

  /**
   * A {@code ?password=} parameter leaves the URL too: HikariCP and PgJDBC print the URL in their
   * DEBUG/FINE lines. PgJDBC reads its value URL-decoded; so does this. A password of the user-info
   * wins over it.
   */
  private JdbcTarget withoutPasswordParameter() {
    int query = url.indexOf('?');
    if (query < 0) {
      return this;
    }
    StringBuilder kept = new StringBuilder();
    String paramPassword = null;
    for (String param : url.substring(query + 1).split("&", -1)) {
      if (param.startsWith("password=")) {
        paramPassword =
            URLDecoder.decode(param.substring("password=".length()), StandardCharsets.UTF_8);
      } else {
        kept.append(kept.length() == 0 ? "" : "&").append(param);
      }
    }
    String bare = url.substring(0, query) + (kept.length() == 0 ? "" : "?" + kept);
    return new JdbcTarget(bare, user, password == null ? paramPassword : password);
  }

  /**
   * {@code base} with this target's user and password, when it has them, put over the ones {@code
   * base} carries (from {@code TASKQ_DATABASE_USER} / {@code TASKQ_DATABASE_PASSWORD}).
   */
  public Properties over(Properties base) {
    Properties props = new Properties();
    props.putAll(base);
    if (user != null) {
      props.setProperty("user", user);
      if (password == null) {
        props.remove("password");
      }
    }
    if (password != null) {
      props.setProperty("password", password);
    }
    return props;
  }

  private static String decode(String part, String setting, String what) {
    if (part.indexOf('%') < 0) {
      return part;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(part.length());
    for (int i = 0; i < part.length(); i++) {
      char c = part.charAt(i);
      if (c != '%') {
        byte[] utf8 = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
        bytes.write(utf8, 0, utf8.length);
        continue;
      }
      int hi = i + 2 < part.length() ? Character.digit(part.charAt(i + 1), 16) : -1;
      int lo = hi < 0 ? -1 : Character.digit(part.charAt(i + 2), 16);
      if (lo < 0) {
        throw new IllegalArgumentException(
            setting
                + " has a malformed percent escape in the "
                + what
                + " of its user-info (a '%' must be followed by two hex digits; write '%25' for a"
                + " '%' itself)");
      }
      bytes.write(hi * 16 + lo);
      i += 2;
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Override
  public String toString() {
    return "JdbcTarget[" + url + (user == null ? "" : ", user=" + user + ", password=***") + "]";
  }
}
