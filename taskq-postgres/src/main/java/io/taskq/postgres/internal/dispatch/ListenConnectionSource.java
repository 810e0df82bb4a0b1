package io.taskq.postgres.internal.dispatch;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import javax.sql.DataSource;

/**
 * Where the wake listener gets its connection. LISTEN needs a session of its own that stays open: a
 * connection held for the worker's life, never handed back to a pool, and never one behind a
 * transaction-pooling proxy (D8: such proxies break LISTEN, so a direct URL can be configured).
 */
@FunctionalInterface
public interface ListenConnectionSource {
  /** Opens (or borrows for good) a connection; the listener closes it when done with it. */
  Connection open() throws SQLException;

  /**
   * A connection straight from the driver, outside any pool.
   *
   * @param properties driver properties (user, password, timeouts); copied
   */
  static ListenConnectionSource direct(String jdbcUrl, Properties properties) {
    Properties copy = new Properties();
    copy.putAll(properties);
    return () -> DriverManager.getConnection(jdbcUrl, copy);
  }

  /**
   * A connection borrowed from the application's pool and kept until the listener closes it: it
   * permanently takes one of the pool's connections.
   */
  static ListenConnectionSource borrowed(DataSource dataSource) {
    return dataSource::getConnection;
  }
}
