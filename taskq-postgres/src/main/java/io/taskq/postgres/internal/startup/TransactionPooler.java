package io.taskq.postgres.internal.startup;

import io.taskq.postgres.internal.JdbcTarget;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.OptionalLong;
import java.util.concurrent.Executor;
import org.jspecify.annotations.Nullable;
import org.postgresql.PGConnection;

/**
 * Detects a transaction-pooling proxy (PgBouncer {@code pool_mode=transaction}, or any pooler that
 * hands a client's transactions to whichever server connection is free) between TaskQ and
 * PostgreSQL (R2).
 *
 * <p>The probe needs two client sessions, A and B. A runs {@code SELECT pg_backend_pid()} on its
 * own; then B opens a transaction and asks the same. Straight to PostgreSQL, two open sessions
 * never share a backend. Through a transaction pooler A's backend went back to the pooler's pool
 * when A's statement ended, and B is handed it (PgBouncer reuses the most recently freed server
 * connection first): the same pid. If B got another one, A asks again while B's transaction holds
 * its backend: a different pid than before means A's session moved, which a session pooler or a
 * direct connection never does. Both sessions are closed afterwards.
 */
public final class TransactionPooler {
  /** How long A's second question may wait for a backend while B holds one. */
  private static final int SECOND_ASK_MILLIS = 5_000;

  private TransactionPooler() {}

  /** Opens one client session; the probe closes it. */
  @FunctionalInterface
  public interface Sessions {
    /** {@return a new client session (a pooled connection or a physical one)} */
    Connection open() throws SQLException;
  }

  /**
   * What the probe saw.
   *
   * @param sharedPid the backend pid two sessions shared, or that moved; empty when none did
   * @param prepareThreshold PgJDBC's {@code prepareThreshold} of the probed connections, or -1 when
   *     they are not PgJDBC's
   */
  public record Seen(OptionalLong sharedPid, int prepareThreshold) {
    /** {@return whether a transaction pooler sits in front of PostgreSQL} */
    public boolean pooled() {
      return sharedPid.isPresent();
    }
  }

  /**
   * Probes through {@code sessions}.
   *
   * @throws SQLException when a session cannot be opened or a question fails
   */
  public static Seen probe(Sessions sessions, Executor timeouts) throws SQLException {
    try (Connection a = sessions.open();
        Connection b = sessions.open()) {
      a.setAutoCommit(true);
      int threshold = prepareThreshold(a);
      long first = pid(a);
      b.setAutoCommit(false);
      try {
        long other = pid(b);
        if (other == first) {
          return new Seen(OptionalLong.of(first), threshold);
        }
        return askAgain(a, first, threshold, timeouts);
      } finally {
        rollbackQuietly(b);
      }
    }
  }

  /** B holds a backend of its own: asks A again whether it still has {@code first}. */
  private static Seen askAgain(Connection a, long first, int threshold, Executor timeouts)
      throws SQLException {
    a.setNetworkTimeout(timeouts, SECOND_ASK_MILLIS);
    long again;
    try {
      again = pid(a);
    } catch (SQLException e) {
      // A waited for a backend while B held one: its session lost its own.
      return new Seen(OptionalLong.of(first), threshold);
    }
    return again == first ? new Seen(OptionalLong.empty(), threshold) : moved(first, threshold);
  }

  private static Seen moved(long first, int threshold) {
    return new Seen(OptionalLong.of(first), threshold);
  }

  private static long pid(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT pg_backend_pid()")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static int prepareThreshold(Connection c) {
    try {
      return c.isWrapperFor(PGConnection.class)
          ? c.unwrap(PGConnection.class).getPrepareThreshold()
          : -1;
    } catch (SQLException e) {
      return -1;
    }
  }

  private static void rollbackQuietly(@Nullable Connection c) {
    try {
      if (c != null && !c.isClosed()) {
        c.rollback();
      }
    } catch (SQLException e) {
      // closing the session ends the transaction anyway
    }
  }

  /** {@code database test on 127.0.0.1:6432}: where a URL points, without user-info. */
  public static String where(JdbcTarget target) {
    return UnreachableDatabase.where(target.url());
  }
}
