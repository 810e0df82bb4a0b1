package io.taskq.postgres.internal.sweep;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/** A transaction-scoped advisory lock taken without waiting; COMMIT or ROLLBACK releases it. */
final class TransactionLock {
  private TransactionLock() {}

  /**
   * Runs {@code trySql} ({@code SELECT pg_try_advisory_xact_lock(?)}) for {@code key}.
   *
   * @return true when this transaction now holds the lock (or already did)
   */
  static boolean tryTake(Connection tx, String trySql, long key) throws SQLException {
    try (PreparedStatement ps = tx.prepareStatement(trySql)) {
      ps.setLong(1, key);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() && rs.getBoolean(1);
      }
    }
  }
}
