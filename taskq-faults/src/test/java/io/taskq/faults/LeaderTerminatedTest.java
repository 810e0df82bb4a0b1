package io.taskq.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.operations.LeaderInfo;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * R7, fault "leader backend terminated": with two worker JVMs running jobs, the backend holding the
 * maintenance-leader lock ({@code taskq:maintenance_leader:taskq}, M1) is ended with {@code
 * pg_terminate_backend}. Leadership recovers on a new session (either JVM may win it; in the second
 * case only the terminated leader's own JVM may lead, so it must win on a new session and build the
 * new term's fence), the sweep loop runs again under it (S14: a {@code reclaim_expired_locks}
 * success written by the new lock session), and jobs enqueued with a delay just before are promoted
 * (S3, leader only) and run.
 */
@Tag("R7")
@Tag("M1")
@Tag("S14")
@Tag("S3")
class LeaderTerminatedTest {
  @Test
  void theLeadersBackendTerminated_leadershipAndSweepsRecover_andEveryJobRuns() throws Exception {
    scenario("leader-terminated", Map.of());
  }

  @Test
  void theLeadersBackendTerminated_withNoOtherCandidate_itsOwnJvmLeadsAgainOnANewSession()
      throws Exception {
    scenario("leader-terminated-alone", Map.of("FAULTS_MAINTENANCE", "false"));
  }

  private void scenario(String name, Map<String, String> bSettings) throws Exception {
    try (FaultCluster cluster = FaultCluster.start(name)) {
      cluster.worker("a");
      cluster.worker("b", bSettings);
      LeaderInfo before = awaitLeader(cluster, -1);
      String leaderJvm = cluster.leader().map(WorkerJvm::name).orElse("?");
      List<Long> ids = new ArrayList<>(cluster.enqueue(200, 50));
      ids.addAll(cluster.enqueueDelayed(20, 0, Duration.ofSeconds(2)));

      String terminatedAt;
      try (Connection c = cluster.connect();
          Statement st = c.createStatement();
          ResultSet rs =
              st.executeQuery(
                  "SELECT clock_timestamp()::text, pg_terminate_backend(" + before.pid() + ")")) {
        rs.next();
        terminatedAt = rs.getString(1);
        assertThat(rs.getBoolean(2)).as("pg_terminate_backend(%s)", before.pid()).isTrue();
      }
      long start = System.nanoTime();
      LeaderInfo after = awaitLeader(cluster, before.pid());
      long newLeaderMs = (System.nanoTime() - start) / 1_000_000;
      String newLeaderJvm = cluster.leader().map(WorkerJvm::name).orElse("?");
      Duration sweeps =
          FaultCluster.await(
              () ->
                  cluster.count(
                          "SELECT count(*) FROM taskq.sweep_health"
                              + " WHERE sweep_name = 'reclaim_expired_locks' AND leader_pid = "
                              + after.pid()
                              + " AND last_success_at > '"
                              + terminatedAt
                              + "'")
                      == 1,
              Duration.ofSeconds(30),
              "the sweep loop did not run under the new leader (backend " + after.pid() + ")");
      long sweepsMs = newLeaderMs + sweeps.toMillis();
      cluster.awaitDrained(ids, Duration.ofSeconds(60));

      cluster.assertInvariants();
      FaultCluster.Figures f = cluster.figures(ids);
      FaultCluster.report(
          f.line(
              "leader backend terminated" + (bSettings.isEmpty() ? "" : ", no other candidate"),
              String.format(
                  "leader %s (backend %d) terminated, new lock holder %s (backend %d) seen after"
                      + " %d ms, its first reclaim sweep within %d ms of the termination",
                  leaderJvm, before.pid(), newLeaderJvm, after.pid(), newLeaderMs, sweepsMs)));
      assertThat(f.lost()).as("jobs lost").isZero();
      assertThat(f.duplicated()).as("jobs run twice").isZero();
      assertThat(cluster.workers()).allMatch(WorkerJvm::isAlive);
    }
  }

  /** Waits for a leader-lock holder other than backend {@code not}; returns it. */
  private static LeaderInfo awaitLeader(FaultCluster cluster, int not) {
    LeaderInfo[] seen = new LeaderInfo[1];
    FaultCluster.await(
        () -> {
          Optional<LeaderInfo> l = cluster.producer().operations().leader();
          l.filter(i -> i.pid() != not).ifPresent(i -> seen[0] = i);
          return seen[0] != null;
        },
        Duration.ofSeconds(30),
        "no maintenance leader" + (not > 0 ? " other than backend " + not : ""));
    return seen[0];
  }
}
