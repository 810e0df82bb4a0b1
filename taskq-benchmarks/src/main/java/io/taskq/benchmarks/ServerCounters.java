package io.taskq.benchmarks;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The database's own cost counters: transaction ids handed out and WAL bytes written.
 *
 * <p>Unlike times, these repeat almost exactly from run to run. A transaction id is assigned to
 * every transaction that writes (and to nothing else), so the difference of the snapshot's {@code
 * xmax} before and after a run counts write transactions; reading it assigns none.
 *
 * @param nextXid the next transaction id the server will assign
 * @param walLsn the current WAL insert position, in bytes
 */
record ServerCounters(long nextXid, long walLsn) {
  static ServerCounters read(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint,"
                    + " pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '0/0')::bigint")) {
      rs.next();
      return new ServerCounters(rs.getLong(1), rs.getLong(2));
    }
  }

  /** The cost of what happened between {@code before} and this reading. */
  Cost since(ServerCounters before, long jobs) {
    return new Cost(
        (nextXid - before.nextXid) / (double) jobs, (walLsn - before.walLsn) / (double) jobs);
  }

  /** Write transactions and WAL bytes per job. */
  record Cost(double writeTransactionsPerJob, double walBytesPerJob) {}
}
