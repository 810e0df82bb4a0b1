package io.taskq.dashboard;

import io.taskq.TaskQConfig;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The dashboard's settings, immutable, from a validating builder or from the {@code
 * TASKQ_DASHBOARD_*} knobs of a {@link TaskQConfig} ({@link #fromConfig}).
 *
 * <p>Authentication (W3) is one of: a {@link DashboardAccess} resolver of the host application; a
 * configured token; a configured user name and password. Without any, the dashboard runs only in
 * read-only mode, and {@link Builder#build()} refuses otherwise: a dashboard that can retry and
 * cancel jobs is never open to whoever reaches its port.
 */
public final class DashboardSettings {
  /** The default mount path of the standalone server. */
  public static final String DEFAULT_PATH = "/taskq";

  /** How long a signed-in session lasts without a request. */
  public static final Duration SESSION_IDLE_TIMEOUT = Duration.ofMinutes(30);

  private final String path;
  private final boolean readOnly;
  private final @Nullable String token;
  private final @Nullable String user;
  private final @Nullable String password;
  private final List<String> origins;
  private final @Nullable DashboardAccess access;

  private DashboardSettings(Builder b) {
    this.path = b.path;
    this.readOnly = b.readOnly;
    this.token = b.token;
    this.user = b.user;
    this.password = b.password;
    this.origins = List.copyOf(b.origins);
    this.access = b.access;
  }

  /**
   * {@return a builder with the defaults: read-write, no credentials, mounted at {@link
   * #DEFAULT_PATH}}
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The settings the {@code TASKQ_DASHBOARD_*} knobs of {@code config} give.
   *
   * @param config the configuration to read
   * @return the settings
   * @throws IllegalArgumentException when they do not make a valid dashboard (see {@link
   *     Builder#build()})
   */
  public static DashboardSettings fromConfig(TaskQConfig config) {
    Builder b = builder().path(config.dashboardPath()).readOnly(config.dashboardReadOnly());
    config.dashboardToken().ifPresent(b::token);
    config.dashboardUser().ifPresent(u -> b.user(u, config.dashboardPassword().orElse("")));
    config.dashboardOrigin().ifPresent(o -> b.origins(List.of(o)));
    return b.build();
  }

  /** {@return the path the dashboard is mounted at, e.g. {@code /taskq}; links start with it} */
  public String path() {
    return path;
  }

  /**
   * True when no user may change state, whatever their credentials.
   *
   * @return true when the dashboard is read-only
   */
  public boolean readOnly() {
    return readOnly;
  }

  /** {@return the configured token, if any} */
  public Optional<String> token() {
    return Optional.ofNullable(token);
  }

  /** {@return the configured user name, if any} */
  public Optional<String> user() {
    return Optional.ofNullable(user);
  }

  /** {@return the configured password, if any} */
  public Optional<String> password() {
    return Optional.ofNullable(password);
  }

  /**
   * The origins (scheme://host[:port]) from which state changes are accepted besides the request's
   * own {@code Host}; needed behind a proxy that rewrites the host.
   *
   * @return the extra accepted origins; empty by default
   */
  public List<String> origins() {
    return origins;
  }

  /** {@return the host application's resolver, if it authenticates users itself} */
  public Optional<DashboardAccess> access() {
    return Optional.ofNullable(access);
  }

  /**
   * True when the dashboard signs users in itself (a token or a user is configured).
   *
   * @return true when a token or a user is configured
   */
  public boolean signsIn() {
    return access == null && (token != null || user != null);
  }

  /** Names what is set, never a secret. */
  @Override
  public String toString() {
    return "DashboardSettings{path="
        + path
        + ", readOnly="
        + readOnly
        + ", token="
        + (token == null ? "unset" : "set")
        + ", user="
        + (user == null ? "unset" : user)
        + ", origins="
        + origins
        + ", access="
        + (access == null ? "built-in" : "host")
        + "}";
  }

  /** Builds {@link DashboardSettings}; each setter validates its argument at once. */
  public static final class Builder {
    private String path = DEFAULT_PATH;
    private boolean readOnly;
    private @Nullable String token;
    private @Nullable String user;
    private @Nullable String password;
    private List<String> origins = List.of();
    private @Nullable DashboardAccess access;

    private Builder() {}

    /**
     * The mount path: {@code /} or {@code /segment[/segment...]} without a trailing slash.
     *
     * <p>Default: {@code /taskq}.
     *
     * @param path the mount path
     * @return this builder
     */
    public Builder path(String path) {
      Objects.requireNonNull(path, "path");
      if (!path.matches("(/[A-Za-z0-9._~-]+)+|/")) {
        throw new IllegalArgumentException(
            "dashboard path must be / or /segment[/segment...] of letters, digits and ._~-"
                + " without a trailing slash, was '"
                + path
                + "'");
      }
      this.path = path;
      return this;
    }

    /**
     * No state changes at all. Default: false.
     *
     * @param readOnly true to allow no state changes
     * @return this builder
     */
    public Builder readOnly(boolean readOnly) {
      this.readOnly = readOnly;
      return this;
    }

    /**
     * Signs in with this token (at least 16 characters).
     *
     * @param token the token, at least 16 characters
     * @return this builder
     * @throws IllegalArgumentException when shorter
     */
    public Builder token(String token) {
      Objects.requireNonNull(token, "token");
      if (token.length() < 16) {
        throw new IllegalArgumentException(
            "dashboard token must be at least 16 characters, was " + token.length());
      }
      this.token = token;
      return this;
    }

    /**
     * Signs in with this user name and password (at least 8 characters).
     *
     * @param name the user name, not blank
     * @param password the password, at least 8 characters
     * @return this builder
     * @throws IllegalArgumentException when the name is blank or the password shorter
     */
    public Builder user(String name, String password) {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(password, "password");
      if (name.isBlank() || name.length() > 128) {
        throw new IllegalArgumentException("dashboard user must be 1..128 characters");
      }
      if (password.length() < 8) {
        throw new IllegalArgumentException(
            "dashboard password for user "
                + name
                + " must be at least 8 characters, was "
                + password.length());
      }
      this.user = name;
      this.password = password;
      return this;
    }

    /**
     * Extra accepted origins, each {@code http[s]://host[:port]}.
     *
     * @param origins the extra origins
     * @return this builder
     * @throws IllegalArgumentException when one is not of that form
     */
    public Builder origins(List<String> origins) {
      for (String origin : origins) {
        if (!origin.toLowerCase(Locale.ROOT).matches("https?://[a-z0-9.\\-\\[\\]:]+")) {
          throw new IllegalArgumentException(
              "dashboard origin must be http[s]://host[:port] without a path, was '"
                  + origin
                  + "'");
        }
      }
      this.origins = List.copyOf(origins);
      return this;
    }

    /**
     * The host application resolves users itself; the built-in sign-in is then not used.
     *
     * @param access the application's resolver of users
     * @return this builder
     */
    public Builder access(DashboardAccess access) {
      this.access = Objects.requireNonNull(access, "access");
      return this;
    }

    /**
     * The settings.
     *
     * @return the settings built from this builder's values
     * @throws IllegalStateException when actions are allowed (not read-only) but nobody could be
     *     authenticated: no resolver, no token, no user
     */
    public DashboardSettings build() {
      if (!readOnly && access == null && token == null && user == null) {
        throw new IllegalStateException(
            "the dashboard allows actions only to signed-in users: set TASKQ_DASHBOARD_TOKEN, or"
                + " TASKQ_DASHBOARD_USER and TASKQ_DASHBOARD_PASSWORD, or run it read-only with"
                + " TASKQ_DASHBOARD_READ_ONLY=true");
      }
      return new DashboardSettings(this);
    }
  }
}
