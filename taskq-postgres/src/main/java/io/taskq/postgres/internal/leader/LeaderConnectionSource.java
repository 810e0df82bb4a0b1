package io.taskq.postgres.internal.leader;

import io.taskq.TaskQConfig;
import io.taskq.postgres.internal.JdbcTarget;
import io.taskq.postgres.internal.OwnedPool;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import javax.sql.DataSource;

/**
 * Opens the leader's dedicated connection: a physical connection of its own that never comes from,
 * or goes back to, a pool (D8).
 *
 * <p>A session advisory lock belongs to the server session. Were the leader to borrow a pooled
 * connection, closing it would hand a session still holding the leader lock to some other borrower,
 * and the lock would outlive the leadership. A transaction-pooling proxy (PgBouncer {@code
 * pool_mode=transaction}) breaks session locks the same way, so the URL given here should reach
 * PostgreSQL directly ({@code TASKQ_DATABASE_DIRECT_URL}).
 */
@FunctionalInterface
public interface LeaderConnectionSource {
  /** A new physical connection in auto-commit mode; the caller closes it. */
  Connection open() throws SQLException;

  /**
   * Connections from {@link DriverManager} on {@code jdbcUrl}, with the PgJDBC timeouts of D10 so
   * no call on them can hang on a frozen server: {@code connectTimeout}, {@code socketTimeout}
   * (keep it above every statement timeout run on the connection) and {@code tcpKeepAlive}. Values
   * already in {@code extra} win. The URL may carry a password: it is never logged.
   *
   * @param extra further driver properties (user, password, ssl...); copied
   */
  static LeaderConnectionSource fromUrl(
      String jdbcUrl, Properties extra, Duration connectTimeout, Duration socketTimeout) {
    return fromUrlWith(jdbcUrl, extra, connectTimeout, socketTimeout);
  }

  /**
   * The leader connections {@code config} describes: {@code TASKQ_DATABASE_DIRECT_URL} when set (it
   * bypasses a transaction-pooling proxy), else {@code TASKQ_DATABASE_URL}, with the configured
   * user, password and timeouts.
   *
   * @return empty when the configuration names no database URL (the application passed its own
   *     DataSource and must supply a direct connection source itself)
   */
  static Optional<LeaderConnectionSource> fromConfig(TaskQConfig config) {
    if (config.databaseDirectUrl().isEmpty() && config.databaseUrl().isEmpty()) {
      return Optional.empty();
    }
    JdbcTarget target =
        OwnedPool.directTarget(config).orElseGet(() -> OwnedPool.pooledTarget(config));
    Properties extra = new Properties();
    config.databaseUser().ifPresent(user -> extra.setProperty("user", user));
    config.databasePassword().ifPresent(password -> extra.setProperty("password", password));
    return Optional.of(
        fromUrlWith(
            target.url(), target.over(extra), config.connectTimeout(), config.socketTimeout()));
  }

  /**
   * Connections borrowed from the application's pool, each kept for a whole leader term (it
   * permanently takes one of the pool's connections) and never returned still holding a session
   * advisory lock: see {@link BorrowedLeaderConnection}. Only for a pool that reaches PostgreSQL
   * directly; behind a transaction-pooling proxy use {@code TASKQ_DATABASE_DIRECT_URL}.
   */
  static LeaderConnectionSource borrowed(DataSource pool) {
    Objects.requireNonNull(pool, "pool");
    return () -> BorrowedLeaderConnection.borrow(pool);
  }

  private static LeaderConnectionSource fromUrlWith(
      String jdbcUrl, Properties extra, Duration connectTimeout, Duration socketTimeout) {
    Properties props = new Properties();
    props.setProperty("connectTimeout", Long.toString(Math.max(1, connectTimeout.toSeconds())));
    props.setProperty("socketTimeout", Long.toString(Math.max(1, socketTimeout.toSeconds())));
    props.setProperty("tcpKeepAlive", "true");
    props.setProperty("ApplicationName", "taskq maintenance leader");
    props.putAll(extra);
    return () -> {
      Connection c = DriverManager.getConnection(jdbcUrl, props);
      c.setAutoCommit(true);
      return c;
    };
  }
}
