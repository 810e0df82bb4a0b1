package io.taskq.dashboard.internal;

import io.taskq.dashboard.DashboardUser;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The dashboard's sessions, in memory and bounded.
 *
 * <p>A session is created on the first page a browser asks for (anonymous: it carries only the CSRF
 * token that the sign-in form itself needs) and replaced by a new one, with a new id and a new
 * token, when the user signs in, so an id planted before sign-in is worth nothing after it (session
 * fixation). A session unused for the idle timeout is gone; when {@link #MAX_SESSIONS} are open the
 * least recently used is dropped, so a client minting sessions cannot grow memory.
 */
public final class Sessions {
  /** The most sessions kept at once. */
  public static final int MAX_SESSIONS = 10_000;

  private final Map<String, Session> byId = new ConcurrentHashMap<>();
  private final Duration idleTimeout;
  private final InstantSource clock;

  /** Sessions that expire after {@code idleTimeout} without a request. */
  public Sessions(Duration idleTimeout, InstantSource clock) {
    this.idleTimeout = idleTimeout;
    this.clock = clock;
  }

  /** The live session with this id, touched; empty when unknown or expired. */
  public Optional<Session> find(@Nullable String id) {
    if (id == null) {
      return Optional.empty();
    }
    Session session = byId.get(id);
    Instant now = clock.instant();
    if (session == null) {
      return Optional.empty();
    }
    if (expired(session, now)) {
      byId.remove(id);
      return Optional.empty();
    }
    session.touch(now);
    return Optional.of(session);
  }

  /** A new session for {@code user} (null: anonymous). */
  public Session open(@Nullable DashboardUser user) {
    Instant now = clock.instant();
    if (byId.size() >= MAX_SESSIONS) {
      evict(now);
    }
    Session session = new Session(Secrets.randomToken(), Secrets.randomToken(), user, now);
    byId.put(session.id(), session);
    return session;
  }

  /** Ends the session. */
  public void close(Session session) {
    byId.remove(session.id());
  }

  /** How many sessions are held now. */
  public int size() {
    return byId.size();
  }

  private void evict(Instant now) {
    byId.values().removeIf(s -> expired(s, now));
    while (byId.size() >= MAX_SESSIONS) {
      byId.values().stream()
          .min(Comparator.comparing(Session::lastSeen))
          .ifPresent(oldest -> byId.remove(oldest.id()));
    }
  }

  private boolean expired(Session session, Instant now) {
    return session.lastSeen().plus(idleTimeout).isBefore(now);
  }
}
