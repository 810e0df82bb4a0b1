package io.taskq.postgres.internal;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A {@link DataSource} whose every {@code getConnection()} opens a physical connection from the
 * driver, outside any pool: for work that needs a session of its own on {@code
 * TASKQ_DATABASE_DIRECT_URL} (R2). The URL carries no user-info (see {@link JdbcTarget}).
 */
final class DriverDataSource implements DataSource {
  private final String url;
  private final Properties properties;

  DriverDataSource(String url, Properties properties) {
    this.url = url;
    this.properties = new Properties();
    this.properties.putAll(properties);
  }

  @Override
  public Connection getConnection() throws SQLException {
    return DriverManager.getConnection(url, properties);
  }

  @Override
  public Connection getConnection(String username, String password) throws SQLException {
    Properties props = new Properties();
    props.putAll(properties);
    props.setProperty("user", username);
    props.setProperty("password", password);
    return DriverManager.getConnection(url, props);
  }

  @Override
  public @org.jspecify.annotations.Nullable PrintWriter getLogWriter() {
    return null;
  }

  @Override
  public void setLogWriter(PrintWriter out) {
    // no log writer: TaskQ logs through SLF4J
  }

  @Override
  public void setLoginTimeout(int seconds) {
    // the D10 connectTimeout in the properties bounds logging in
  }

  @Override
  public int getLoginTimeout() {
    return 0;
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    throw new SQLFeatureNotSupportedException("no java.util.logging parent logger");
  }

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    if (iface.isInstance(this)) {
      return iface.cast(this);
    }
    throw new SQLException("not a wrapper of " + iface.getName());
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) {
    return iface.isInstance(this);
  }

  @Override
  public String toString() {
    return "DriverDataSource[" + url + "]";
  }
}
