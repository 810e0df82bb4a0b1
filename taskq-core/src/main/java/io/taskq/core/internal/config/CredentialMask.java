package io.taskq.core.internal.config;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Hides the password in a connection URL before the URL is shown anywhere (D6): in {@code
 * toString}, in exception messages, in logs.
 *
 * <p>It masks the password of the user-info part ({@code user:pass@host} becomes {@code
 * user:***@host}; for Redis, where {@code redis://pass@host} carries a password without a user, and
 * for text without {@code ://}, the whole user-info) and the value of every query parameter whose
 * name mentions a password, secret or token ({@code ?password=}, {@code &sslpassword=}). It works
 * on malformed text too, because a bad URL is exactly what ends up in an error message; when in
 * doubt it hides more, never less.
 */
public final class CredentialMask {
  /** What a hidden secret shows as. */
  public static final String MASK = "***";

  private static final Pattern SECRET_PARAMETER =
      Pattern.compile(
          "([?&;][^=&;?#]*(?:password|passwd|pwd|secret|token)[^=&;#]*=)[^&;#]*",
          Pattern.CASE_INSENSITIVE);

  private CredentialMask() {}

  /** {@code url} with every password in it replaced by {@value #MASK}. */
  public static String mask(String url) {
    return SECRET_PARAMETER.matcher(maskUserInfo(url)).replaceAll("$1" + MASK);
  }

  private static String maskUserInfo(String url) {
    int schemeEnd = url.indexOf("://");
    int start = schemeEnd < 0 ? 0 : schemeEnd + 3;
    int at = url.lastIndexOf('@');
    if (at < start) {
      return url;
    }
    String userInfo = url.substring(start, at);
    int colon = userInfo.indexOf(':');
    String masked;
    if (colon >= 0) {
      masked = userInfo.substring(0, colon + 1) + MASK;
    } else if (schemeEnd < 0 || url.toLowerCase(Locale.ROOT).startsWith("redis")) {
      masked = MASK;
    } else {
      masked = userInfo;
    }
    return url.substring(0, start) + masked + url.substring(at);
  }
}
