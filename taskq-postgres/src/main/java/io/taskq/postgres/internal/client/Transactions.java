package io.taskq.postgres.internal.client;

import java.sql.Connection;
import java.sql.SQLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who commits: the store on its own connections, the caller on theirs (L2).
 *
 * <p>On a connection the store borrowed from the pool it commits (or rolls back) what it did. On a
 * caller's connection inside a transaction (auto-commit off) it never commits, rolls back or
 * closes: the job commits or vanishes with the caller's work. A caller's connection in auto-commit
 * mode is treated like the store's own: work that needs several statements in one transaction (a
 * keyed lock and its insert) runs in one, committed at once, and auto-commit is restored.
 */
public final class Transactions {
  private static final Logger LOG = LoggerFactory.getLogger(Transactions.class);

  /** Database work on one connection. */
  @FunctionalInterface
  public interface Work<T> {
    T run(Connection connection) throws SQLException;
  }

  private Transactions() {}

  /**
   * Runs {@code work} on a connection the store owns, committing it.
   *
   * @param atomic whether the work's statements must share one transaction
   */
  public static <T> T owned(Connection c, boolean atomic, Work<T> work) throws SQLException {
    boolean autoCommit = c.getAutoCommit();
    if (autoCommit && !atomic) {
      return work.run(c);
    }
    if (autoCommit) {
      c.setAutoCommit(false);
    }
    try {
      T result = work.run(c);
      c.commit();
      return result;
    } catch (SQLException | RuntimeException e) {
      rollbackQuietly(c, e);
      throw e;
    } finally {
      if (autoCommit) {
        c.setAutoCommit(true);
      }
    }
  }

  /** Runs {@code work} on the caller's connection: inside their transaction when one is open. */
  public static <T> T borrowed(Connection c, boolean atomic, Work<T> work) throws SQLException {
    if (!c.getAutoCommit()) {
      return work.run(c);
    }
    return owned(c, atomic, work);
  }

  private static void rollbackQuietly(Connection c, Exception cause) {
    try {
      c.rollback();
    } catch (SQLException e) {
      cause.addSuppressed(e);
      LOG.debug("rollback failed after an error", e);
    }
  }
}
