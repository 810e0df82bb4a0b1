package io.taskq.dashboard.internal;

import io.taskq.dashboard.DashboardUser;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * One browser's session: its id (the cookie), its CSRF token (W4), the signed-in user if any and
 * one message to show after a redirect. Thread-safe.
 */
public final class Session {
  private final String id;
  private final String csrfToken;
  private final @Nullable DashboardUser user;
  private @Nullable String flash;
  private Instant lastSeen;

  Session(String id, String csrfToken, @Nullable DashboardUser user, Instant now) {
    this.id = id;
    this.csrfToken = csrfToken;
    this.user = user;
    this.lastSeen = now;
  }

  /** The session id, as the cookie carries it. */
  public String id() {
    return id;
  }

  /** The token every state change of this session must carry. */
  public String csrfToken() {
    return csrfToken;
  }

  /** The user signed in on this session, or null. */
  public @Nullable DashboardUser user() {
    return user;
  }

  /** Keeps a message for the next page this session sees. */
  public synchronized void flash(String message) {
    this.flash = message;
  }

  /** The kept message, once: it is cleared. */
  public synchronized @Nullable String takeFlash() {
    String out = flash;
    flash = null;
    return out;
  }

  synchronized void touch(Instant now) {
    lastSeen = now;
  }

  synchronized Instant lastSeen() {
    return lastSeen;
  }
}
