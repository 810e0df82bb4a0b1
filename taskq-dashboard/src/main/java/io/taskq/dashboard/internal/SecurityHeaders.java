package io.taskq.dashboard.internal;

import io.taskq.dashboard.DashboardResponse;

/**
 * The headers every answer carries (W5).
 *
 * <p>The content security policy allows scripts, styles and images from the dashboard's own origin
 * only (the assets in the jar), no inline script or style, no plugin, no base rewrite, forms
 * posting only to itself and no framing ({@code frame-ancestors 'none'} with {@code
 * X-Frame-Options: DENY} for older browsers). {@code nosniff} stops a payload served as text from
 * being run as script. Pages are never cached (they show payloads). The referrer is sent to the
 * same origin only: the Origin check of a state change reads it when a browser omits {@code
 * Origin}.
 */
public final class SecurityHeaders {
  /** The policy, one line. */
  public static final String CONTENT_SECURITY_POLICY =
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src"
          + " 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

  private SecurityHeaders() {}

  /** {@code response} with the security headers set. */
  public static DashboardResponse apply(DashboardResponse response) {
    return response
        .withHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        .withHeader("X-Frame-Options", "DENY")
        .withHeader("X-Content-Type-Options", "nosniff")
        .withHeader("Referrer-Policy", "same-origin")
        .withHeader("Cross-Origin-Opener-Policy", "same-origin")
        .withHeader("Cross-Origin-Resource-Policy", "same-origin")
        .withHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
        .withHeader("Cache-Control", "no-store");
  }
}
