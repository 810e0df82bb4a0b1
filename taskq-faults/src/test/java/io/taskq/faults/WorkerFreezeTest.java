package io.taskq.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * R7, fault "SIGSTOP past the lease, then SIGCONT": worker b (never the leader) is frozen while it
 * runs jobs of 1.5 s, past its 3 s lease and past the 6 s after which its worker row is stale. The
 * leader a reclaims b's jobs and runs them again at attempt 2, for 12 s. b is thawed while those
 * reclaiming runs are still going, so only the lease token fences b's late completions (D9): the
 * job rows stay {@code running} under a's token, the fencing WARN is in b's log and {@code
 * JobListener.writeFenced} counted on b, never on a. Each job's terminal row is then a's: succeeded
 * at attempt 2, under a's lease token, finished after a's handler returned; no job succeeds twice.
 * b then runs new jobs.
 */
@Tag("R7")
@Tag("S1")
@Tag("L4")
@Tag("D9")
class WorkerFreezeTest {
  /** How long a reclaimed (second) attempt runs: b is thawed well before it ends. */
  private static final long RECLAIMING_RUN_MS = 12_000;

  @Test
  void aWorkerFrozenPastItsLease_isFencedWhenThawed_andNoJobSucceedsTwice() throws Exception {
    try (FaultCluster cluster = FaultCluster.start("worker-freeze")) {
      WorkerJvm a = cluster.worker("a");
      WorkerJvm b = cluster.worker("b", Map.of("FAULTS_MAINTENANCE", "false"));
      List<io.taskq.JobRequest> jobs = new ArrayList<>();
      for (int i = 0; i < 24; i++) {
        jobs.add(FaultActors.job(1500, RECLAIMING_RUN_MS));
      }
      List<Long> ids = cluster.producer().jobs().enqueueAll(jobs);
      FaultCluster.await(
          () -> cluster.runningOn(b).size() >= 2,
          Duration.ofSeconds(30),
          "worker b did not start running jobs");
      b.freeze();
      long frozenAt = System.nanoTime();
      FaultCluster.sleep(Duration.ofMillis(200));
      List<Long> onB = cluster.runningOn(b);
      assertThat(onB).as("jobs running on b when frozen").isNotEmpty();
      String inList = join(onB);

      Duration reclaimed =
          FaultCluster.await(
              () -> cluster.runningOn(a).containsAll(onB),
              Duration.ofSeconds(60),
              () ->
                  "b's jobs were not reclaimed and run on a while b was frozen:"
                      + cluster.describe(onB));
      // Past the lease, and past the 6 s after which b's worker row is stale.
      FaultCluster.sleep(Duration.ofMillis(Math.max(0, 7000 - FaultCluster.elapsedMs(frozenAt))));
      long frozenFor = FaultCluster.elapsedMs(frozenAt);
      assertThat(cluster.runningOn(a))
          .as(
              "a's reclaiming runs still going when b is thawed (else this tests the status fence"
                  + " only)")
          .containsAll(onB);
      b.thaw();

      Duration finishedLate =
          FaultCluster.await(
              () ->
                  cluster.count(
                          "SELECT count(*) FROM faults.executions WHERE pid = "
                              + b.pid()
                              + " AND job_id IN ("
                              + inList
                              + ") AND attempt = 1 AND finished_at IS NOT NULL")
                      == onB.size(),
              Duration.ofSeconds(30),
              () -> "b's frozen handlers did not finish after the thaw:" + cluster.describe(onB));
      // b's late outcomes are written (or fenced) right after its handlers return.
      FaultCluster.sleep(Duration.ofSeconds(1));
      assertThat(cluster.runningOn(a))
          .as(
              "the frozen worker's late completions left a's reclaiming runs alone (rows still"
                  + " running at attempt 2 under a's lease)")
          .withFailMessage(
              () ->
                  "b's late completion changed the rows of a's reclaiming runs (the lease token did"
                      + " not fence it):"
                      + cluster.describe(onB))
          .containsAll(onB);
      FaultCluster.await(
          () -> b.fencedWrites() >= 1,
          Duration.ofSeconds(30),
          () -> "b reported no fenced write after the thaw; see " + b.log());
      long fencedOnB = b.fencedWrites();

      cluster.awaitDrained(ids, Duration.ofSeconds(60));
      List<String> notA = notTheReclaimingRuns(cluster, a, inList);
      assertThat(notA)
          .as("jobs whose terminal row is not that of a's reclaiming run")
          .withFailMessage(
              () ->
                  "terminal rows not written by a's reclaiming run: "
                      + notA
                      + cluster.describe(onB))
          .isEmpty();
      assertThat(fencedOnB).as("fenced writes counted on the frozen worker b").isPositive();
      assertThat(a.fencedWrites()).as("fenced writes counted on the reclaiming worker a").isZero();

      // Jobs keep arriving until b runs one: a fixed batch could all drain on a first.
      List<Long> more = new ArrayList<>();
      long askedAt = System.nanoTime();
      cluster.awaitWithTraffic(
          more,
          () ->
              cluster.count(
                      "SELECT count(*) FROM faults.executions WHERE pid = "
                          + b.pid()
                          + " AND started_at > (SELECT max(finished_at) FROM faults.executions"
                          + " WHERE pid = "
                          + b.pid()
                          + " AND job_id IN ("
                          + inList
                          + "))")
                  > 0,
          Duration.ofSeconds(30),
          "b ran no new job after the thaw; see " + b.log());
      Duration bWorksAgain = Duration.ofNanos(System.nanoTime() - askedAt);
      List<Long> all = new ArrayList<>(ids);
      all.addAll(more);
      cluster.awaitDrained(all, Duration.ofSeconds(60));

      cluster.assertInvariants();
      FaultCluster.Figures f = cluster.figures(all);
      FaultCluster.report(
          f.line(
              "worker SIGSTOP past the lease, SIGCONT",
              String.format(
                  "jobs running on the frozen JVM %d, frozen %d ms, reclaimed and running"
                      + " elsewhere %d ms after the freeze, frozen handlers finished %d ms after the"
                      + " thaw, job rows still the"
                      + " reclaiming run's, new jobs on it %d ms after, its fenced writes %d",
                  onB.size(),
                  frozenFor,
                  reclaimed.toMillis(),
                  finishedLate.toMillis(),
                  bWorksAgain.toMillis(),
                  b.fencedWrites())));
      assertThat(f.lost()).as("jobs lost").isZero();
      assertThat(f.duplicated()).as("jobs run twice at one attempt or succeeded twice").isZero();
      assertThat(f.fencedWrites()).as("fenced writes recorded by b").isPositive();
      assertThat(Files.readString(b.log()))
          .as("b's log")
          .contains("changed nothing: the lease was taken over");
      assertThat(a.isAlive()).isTrue();
    }
  }

  /**
   * Jobs of {@code inList} whose row is not the end of a's second attempt: each must be succeeded
   * at attempt 2 under the lease token a's run recorded, finished no earlier than a's handler.
   */
  private static List<String> notTheReclaimingRuns(FaultCluster cluster, WorkerJvm a, String inList)
      throws Exception {
    List<String> out = new ArrayList<>();
    try (Connection c = cluster.connect();
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT j.id, j.status, j.attempt, j.lease_token, j.finished_at, x.lease_token,"
                    + " x.finished_at FROM taskq.jobs j LEFT JOIN faults.executions x"
                    + " ON x.job_id = j.id AND x.attempt = 2 AND x.pid = "
                    + a.pid()
                    + " WHERE j.id IN ("
                    + inList
                    + ") AND (x.id IS NULL OR j.status <> 'succeeded' OR j.attempt <> 2"
                    + " OR j.lease_token IS DISTINCT FROM x.lease_token"
                    + " OR x.finished_at IS NULL OR j.finished_at < x.finished_at)"
                    + " ORDER BY j.id")) {
      while (rs.next()) {
        out.add(
            String.format(
                "job %d %s at attempt %d, token %s, finished %s; a's run: token %s, handler"
                    + " returned %s",
                rs.getLong(1),
                rs.getString(2),
                rs.getInt(3),
                rs.getString(4),
                rs.getString(5),
                rs.getString(6),
                rs.getString(7)));
      }
    }
    return out;
  }

  private static String join(List<Long> ids) {
    return String.join(",", ids.stream().map(String::valueOf).toList());
  }
}
