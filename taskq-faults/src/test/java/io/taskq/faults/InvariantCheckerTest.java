package io.taskq.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * R7: the invariant checker can fail. A worker JVM runs 20 jobs cleanly (no violation), then each
 * rule gets a planted violation on the scenario's scratch cluster: a job put back to running with a
 * lease an hour old, an attempt run twice, an attempt past the policy's bound, a failure event
 * after a success, and an advisory lock held by a session of a worker JVM that is dead. Each is
 * reported with its job.
 */
@Tag("R7")
class InvariantCheckerTest {
  @Test
  void aCleanRunHasNoViolation_andEachPlantedViolationIsReportedWithItsJob() throws Exception {
    try (FaultCluster cluster = FaultCluster.start("checker")) {
      WorkerJvm a = cluster.worker("a");
      List<Long> ids = cluster.enqueue(20, 0);
      cluster.awaitDrained(ids, Duration.ofSeconds(60));
      assertThat(cluster.violations()).as("a clean run").isEmpty();
      a.stop(Duration.ofSeconds(30));
      assertThat(cluster.violations()).as("after a graceful stop").isEmpty();

      long stale = ids.get(0);
      long twice = ids.get(1);
      long pastBound = ids.get(2);
      long failedAfterSuccess = ids.get(3);
      long deadPid = deadProcessPid();
      try (Connection c = cluster.connect();
          Statement st = c.createStatement()) {
        st.executeUpdate(
            "UPDATE taskq.jobs SET status = 'running', locked_by = 'ghost', lease_token = 999999,"
                + " lock_expires_at = clock_timestamp() - interval '1 hour' WHERE id = "
                + stale);
        st.executeUpdate(
            "INSERT INTO faults.executions (job_id, attempt, pid, worker, lease_token)"
                + " SELECT job_id, attempt, pid + 1, worker, NULL FROM faults.executions"
                + " WHERE job_id = "
                + twice);
        st.executeUpdate("UPDATE taskq.jobs SET attempt = 11 WHERE id = " + pastBound);
        st.executeUpdate(
            "INSERT INTO taskq.job_events (job_id, kind, actor, queue, attempt, disposition,"
                + " occurred_at) SELECT id, 'failed', actor, queue, attempt, 'failed',"
                + " clock_timestamp() FROM taskq.jobs WHERE id = "
                + failedAfterSuccess);
      }
      Properties asDeadWorker = new Properties();
      asDeadWorker.setProperty("ApplicationName", "faults-worker-" + deadPid);
      try (Connection ghost =
              DriverManager.getConnection(cluster.postgres().jdbcUrl(), asDeadWorker);
          Statement st = ghost.createStatement()) {
        st.execute("SELECT pg_advisory_lock(4242)");

        List<InvariantChecker.Violation> found = cluster.violations();
        found.forEach(v -> System.out.println("planted and found: " + v));
        assertThat(found)
            .extracting(InvariantChecker.Violation::rule, InvariantChecker.Violation::jobId)
            .contains(
                tuple("settled", stale),
                tuple("expired-lease", stale),
                tuple("claimed-twice", twice),
                tuple("attempt-bounds", pastBound),
                tuple("terminal-once", failedAfterSuccess),
                tuple("last-event", failedAfterSuccess),
                tuple("dead-lock-holder", 0L));
        assertThat(found)
            .filteredOn(v -> v.rule().equals("dead-lock-holder"))
            .singleElement()
            .extracting(InvariantChecker.Violation::detail)
            .asString()
            .contains("advisory lock 4242", "worker JVM " + deadPid + " is dead");
        assertThat(found)
            .extracting(InvariantChecker.Violation::jobId)
            .as("no job but the planted ones")
            .containsOnly(stale, twice, pastBound, failedAfterSuccess, 0L);
      }
    }
  }

  /** The pid of a process that ran and exited. */
  private static long deadProcessPid() throws Exception {
    Process p = new ProcessBuilder("true").start();
    p.waitFor();
    return p.pid();
  }
}
