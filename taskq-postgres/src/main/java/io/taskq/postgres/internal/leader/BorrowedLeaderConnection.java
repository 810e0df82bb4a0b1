package io.taskq.postgres.internal.leader;

import com.zaxxer.hikari.HikariDataSource;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's connection when the application handed TaskQ only a pooled {@link DataSource} (D8):
 * one connection borrowed from that pool and kept for the leader's whole term, so the pool has one
 * connection fewer while this process campaigns or leads.
 *
 * <p>A borrowed connection goes back to the pool when the elector closes it, and a session still
 * holding the leader lock must never go back: the lock would outlive the leadership in some other
 * borrower's hands. So {@code close()} first releases every session advisory lock ({@code
 * pg_advisory_unlock_all()}) and resets the {@code idle_session_timeout} the elector set; when it
 * cannot (the connection failed, or timed out), it ends the physical connection instead of
 * returning it: evicted from a HikariCP pool, aborted otherwise.
 *
 * <p>Behind a transaction-pooling proxy a session lock means nothing; there the direct URL ({@code
 * TASKQ_DATABASE_DIRECT_URL}) is required.
 */
final class BorrowedLeaderConnection implements InvocationHandler {
  private static final Logger LOG = LoggerFactory.getLogger(BorrowedLeaderConnection.class);
  private static final int UNLOCK_TIMEOUT_SECONDS = 5;

  private final DataSource pool;
  private final Connection borrowed;

  private BorrowedLeaderConnection(DataSource pool, Connection borrowed) {
    this.pool = pool;
    this.borrowed = borrowed;
  }

  /** Borrows a connection from {@code pool}, in auto-commit mode, guarded as described above. */
  static Connection borrow(DataSource pool) throws SQLException {
    Connection c = pool.getConnection();
    try {
      c.setAutoCommit(true);
    } catch (SQLException e) {
      c.close();
      throw e;
    }
    return (Connection)
        Proxy.newProxyInstance(
            Connection.class.getClassLoader(),
            new Class<?>[] {Connection.class},
            new BorrowedLeaderConnection(pool, c));
  }

  @Override
  public @Nullable Object invoke(Object proxy, Method method, @Nullable Object[] args)
      throws Throwable {
    if (method.getName().equals("close") && method.getParameterCount() == 0) {
      giveBack();
      return null;
    }
    try {
      return method.invoke(borrowed, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  private void giveBack() throws SQLException {
    if (borrowed.isClosed()) {
      return;
    }
    try (Statement s = borrowed.createStatement()) {
      s.setQueryTimeout(UNLOCK_TIMEOUT_SECONDS);
      s.execute("SELECT pg_advisory_unlock_all()");
      if (borrowed.getMetaData().getDatabaseMajorVersion() >= 14) {
        // The elector limited the session's idleness (R7, leader.sql idle_limit): not the pool's.
        s.execute("RESET idle_session_timeout");
      }
    } catch (SQLException e) {
      LOG.warn(
          "could not release the leader's session locks on its borrowed connection; ending that"
              + " connection instead of returning it to the pool: {}",
          e.toString());
      discard();
      return;
    }
    borrowed.close();
  }

  private void discard() throws SQLException {
    if (pool instanceof HikariDataSource hikari) {
      hikari.evictConnection(borrowed);
      return;
    }
    try {
      borrowed.abort(Runnable::run);
    } finally {
      borrowed.close();
    }
  }
}
