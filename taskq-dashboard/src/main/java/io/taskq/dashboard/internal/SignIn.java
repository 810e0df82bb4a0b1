package io.taskq.dashboard.internal;

import io.taskq.dashboard.DashboardResponse;
import io.taskq.dashboard.DashboardSettings;
import io.taskq.dashboard.DashboardUser;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /login} and {@code /logout} (W3). The form takes the configured token, or the configured
 * user name and password; each is compared in constant time. A successful sign-in replaces the
 * session (new id, new CSRF token). The sign-in form is itself protected like every state change
 * (origin and CSRF token), so a foreign page cannot sign a browser in to an account of its
 * choosing. A failure says only that the credentials were wrong, and is logged without them.
 */
final class SignIn {
  private static final Logger LOG = LoggerFactory.getLogger(SignIn.class);

  private final Context ctx;
  private final Sessions sessions;

  SignIn(Context ctx, Sessions sessions) {
    this.ctx = ctx;
    this.sessions = sessions;
  }

  DashboardResponse form(Visit visit, int status, String message) {
    Map<String, Object> scope = ctx.scope(visit, "login", "Sign in");
    DashboardSettings s = ctx.settings();
    scope.put("tokenForm", s.token().isPresent());
    scope.put("userForm", s.user().isPresent());
    if (!message.isEmpty()) {
      scope.put("error", message);
    }
    return Responses.html(status, ctx.templates().render("login", scope));
  }

  /** Signs in; the answer sets the new session's cookie (see {@link Visit#on}). */
  Outcome signIn(Visit visit) {
    Optional<DashboardUser> user = check(visit);
    if (user.isEmpty()) {
      LOG.warn("TaskQ dashboard: a sign-in failed");
      return new Outcome(visit, form(visit, 401, "Those credentials are not valid."));
    }
    sessions.close(visit.session());
    Visit signedIn = visit.on(sessions.open(user.get()));
    LOG.info("TaskQ dashboard: {} signed in", user.get().name());
    return new Outcome(signedIn, Responses.redirect(ctx.link("/")));
  }

  Outcome signOut(Visit visit) {
    sessions.close(visit.session());
    return new Outcome(visit.on(sessions.open(null)), Responses.redirect(ctx.link("/login")));
  }

  private Optional<DashboardUser> check(Visit visit) {
    DashboardSettings s = ctx.settings();
    boolean mayAct = !s.readOnly();
    Optional<String> token = visit.request().form("token");
    if (token.isPresent() && s.token().isPresent()) {
      return Secrets.matches(token.get(), s.token().get())
          ? Optional.of(new DashboardUser("token", mayAct))
          : Optional.empty();
    }
    Optional<String> name = visit.request().form("user");
    Optional<String> password = visit.request().form("password");
    if (name.isPresent() && password.isPresent() && s.user().isPresent()) {
      boolean nameOk = Secrets.matches(name.get(), s.user().get());
      boolean passwordOk = Secrets.matches(password.get(), s.password().orElse(""));
      return nameOk && passwordOk
          ? Optional.of(new DashboardUser(s.user().get(), mayAct))
          : Optional.empty();
    }
    return Optional.empty();
  }

  /** The answer and the visit it belongs to (a new session after sign-in and sign-out). */
  record Outcome(Visit visit, DashboardResponse response) {}
}
