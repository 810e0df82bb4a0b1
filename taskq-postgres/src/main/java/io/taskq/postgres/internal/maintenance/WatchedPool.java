package io.taskq.postgres.internal.maintenance;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLTransientConnectionException;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The maintenance sweeps' view of their pool: every {@code getConnection()} is reported to a {@link
 * PoolOutage}, and one that fails throws a {@link NoConnectionException}, so the loops can tell a
 * pool that gives no connection from a sweep whose own statement failed (R2, R7).
 */
final class WatchedPool implements DataSource {
  private final DataSource pool;
  private final PoolOutage outage;

  WatchedPool(DataSource pool, PoolOutage outage) {
    this.pool = pool;
    this.outage = outage;
  }

  @Override
  public Connection getConnection() throws SQLException {
    long askedAt = outage.now();
    Connection c;
    try {
      c = pool.getConnection();
    } catch (SQLException e) {
      outage.refused(askedAt, e);
      throw new NoConnectionException(e);
    }
    outage.answered();
    return c;
  }

  @Override
  public Connection getConnection(String username, String password) throws SQLException {
    throw new SQLFeatureNotSupportedException("the sweeps borrow with the pool's own credentials");
  }

  @Override
  public PrintWriter getLogWriter() throws SQLException {
    return pool.getLogWriter();
  }

  @Override
  public void setLogWriter(PrintWriter out) throws SQLException {
    pool.setLogWriter(out);
  }

  @Override
  public void setLoginTimeout(int seconds) throws SQLException {
    pool.setLoginTimeout(seconds);
  }

  @Override
  public int getLoginTimeout() throws SQLException {
    return pool.getLoginTimeout();
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    return pool.getParentLogger();
  }

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    return iface.isInstance(this) ? iface.cast(this) : pool.unwrap(iface);
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) throws SQLException {
    return iface.isInstance(this) || pool.isWrapperFor(iface);
  }

  /**
   * The pool gave no connection (its own error is the cause): the sweep never reached the database.
   */
  static final class NoConnectionException extends SQLTransientConnectionException {
    private static final long serialVersionUID = 1L;

    NoConnectionException(SQLException cause) {
      super(
          "could not get a connection from the pool: " + cause.getMessage(),
          cause.getSQLState() != null ? cause.getSQLState() : "08001",
          cause);
    }
  }
}
