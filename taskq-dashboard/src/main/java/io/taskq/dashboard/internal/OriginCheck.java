package io.taskq.dashboard.internal;

import io.taskq.dashboard.DashboardRequest;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * W4, first line: a state change must come from a page of this dashboard's own origin.
 *
 * <p>The request's {@code Origin} (or, when a browser omits it, the origin of its {@code Referer})
 * must equal the origin the request was addressed to ({@code Host}, with the scheme the server
 * received) or one of the configured public origins; a request carrying neither header is refused,
 * as is one a browser marks {@code Sec-Fetch-Site: cross-site} or {@code same-site}. The CSRF token
 * ({@link Gate}) is the second line: both must pass.
 */
final class OriginCheck {
  private final List<String> extraOrigins;

  OriginCheck(List<String> extraOrigins) {
    this.extraOrigins = extraOrigins.stream().map(o -> o.toLowerCase(Locale.ROOT)).toList();
  }

  /** Why the request is refused, or empty when its origin is this dashboard's. */
  Optional<String> problem(DashboardRequest request) {
    String site = request.header("Sec-Fetch-Site").orElse("");
    if (site.equals("cross-site") || site.equals("same-site")) {
      return Optional.of(
          "refused: the request came from another site (Sec-Fetch-Site: " + site + ")");
    }
    Optional<String> origin = request.header("Origin").or(() -> refererOrigin(request));
    if (origin.isEmpty()) {
      return Optional.of("refused: a state change must carry an Origin or Referer header");
    }
    String given = origin.get().toLowerCase(Locale.ROOT);
    String own = (request.secure() ? "https://" : "http://") + request.header("Host").orElse("");
    if (given.equals(own.toLowerCase(Locale.ROOT)) || extraOrigins.contains(given)) {
      return Optional.empty();
    }
    return Optional.of("refused: the request's origin is not this dashboard's");
  }

  private static Optional<String> refererOrigin(DashboardRequest request) {
    Optional<String> referer = request.header("Referer");
    if (referer.isEmpty()) {
      return Optional.empty();
    }
    try {
      URI uri = URI.create(referer.get());
      if (uri.getScheme() == null || uri.getRawAuthority() == null) {
        return Optional.empty();
      }
      return Optional.of(uri.getScheme() + "://" + uri.getRawAuthority());
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
