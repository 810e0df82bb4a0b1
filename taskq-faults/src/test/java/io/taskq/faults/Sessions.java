package io.taskq.faults;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Server-side views of the worker JVMs' sessions for the faults of group B: a worker JVM's backends
 * carry {@code application_name = faults-worker-<pid>} ({@link FaultWorkerMain}).
 */
final class Sessions {
  private Sessions() {}

  /**
   * The backends of {@code worker} whose last statement was a {@code LISTEN}: its wake listener's
   * session (the listener sends nothing else until its 30 s liveness probe).
   */
  static List<Integer> listenBackends(FaultCluster cluster, WorkerJvm worker) {
    return pids(
        cluster,
        "SELECT pid FROM pg_stat_activity WHERE application_name = ? AND query LIKE 'LISTEN %'"
            + " ORDER BY pid",
        "faults-worker-" + worker.pid());
  }

  /** Terminates each backend with {@code pg_terminate_backend}; returns how many it ended. */
  static int terminate(FaultCluster cluster, List<Integer> backends) {
    int ended = 0;
    try (Connection c = cluster.connect();
        PreparedStatement ps = c.prepareStatement("SELECT pg_terminate_backend(?)")) {
      for (int pid : backends) {
        ps.setInt(1, pid);
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          ended += rs.getBoolean(1) ? 1 : 0;
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("could not terminate " + backends + ": " + e, e);
    }
    return ended;
  }

  /**
   * Sessions of the cluster's {@code postgres} database that ended with a FATAL error since the
   * statistics were reset (an idle-in-transaction timeout is one).
   */
  static long fatalSessions(FaultCluster cluster) {
    return cluster.count(
        "SELECT sessions_fatal FROM pg_stat_database WHERE datname = current_database()");
  }

  private static List<Integer> pids(FaultCluster cluster, String sql, String arg) {
    List<Integer> out = new ArrayList<>();
    try (Connection c = cluster.connect();
        PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setString(1, arg);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(rs.getInt(1));
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException(sql + ": " + e, e);
    }
    return out;
  }
}
