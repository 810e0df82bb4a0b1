package io.taskq.postgres.internal.sweep;

import java.io.PrintWriter;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLFeatureNotSupportedException;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Hands out one connection again and again, ignoring close(): to look at one session afterwards.
 */
final class OneConnection implements DataSource {
  private final Connection connection;

  OneConnection(Connection connection) {
    this.connection = connection;
  }

  @Override
  public Connection getConnection() {
    return (Connection)
        Proxy.newProxyInstance(
            OneConnection.class.getClassLoader(),
            new Class<?>[] {Connection.class},
            (proxy, method, args) ->
                method.getName().equals("close") ? null : method.invoke(connection, args));
  }

  @Override
  public Connection getConnection(String user, String password) {
    return getConnection();
  }

  @Override
  public PrintWriter getLogWriter() {
    throw new UnsupportedOperationException();
  }

  @Override
  public void setLogWriter(PrintWriter out) {
    throw new UnsupportedOperationException();
  }

  @Override
  public void setLoginTimeout(int seconds) {
    throw new UnsupportedOperationException();
  }

  @Override
  public int getLoginTimeout() {
    return 0;
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    throw new SQLFeatureNotSupportedException();
  }

  @Override
  public <T> T unwrap(Class<T> iface) {
    throw new UnsupportedOperationException();
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) {
    return false;
  }
}
