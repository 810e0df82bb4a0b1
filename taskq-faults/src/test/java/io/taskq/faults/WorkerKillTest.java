package io.taskq.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * R7, fault "worker SIGKILL mid-job": two worker JVMs drain 300 jobs of 100 ms; worker a is killed
 * with SIGKILL while it runs jobs. Its jobs are reclaimed (S1: lease or heartbeat arm) and run
 * again on b at their next attempt; none is lost, none runs the same attempt twice or succeeds
 * twice. Recovery time: from the kill until every job a was running has started again on b.
 */
@Tag("R7")
@Tag("S1")
@Tag("L4")
class WorkerKillTest {
  @Test
  void aWorkerKilledMidJob_itsJobsAreReclaimedAndRunAgain_noneLostOrDuplicated() throws Exception {
    try (FaultCluster cluster = FaultCluster.start("worker-kill")) {
      WorkerJvm a = cluster.worker("a");
      WorkerJvm b = cluster.worker("b");
      List<Long> ids = cluster.enqueue(300, 100);
      FaultCluster.await(
          () -> cluster.runningOn(a).size() >= 2,
          Duration.ofSeconds(30),
          "worker a did not start running jobs");
      boolean wasLeader = cluster.leader().map(l -> l == a).orElse(false);
      // Frozen first, so the list of its running jobs cannot change before it dies (a statement
      // already on the wire gets 200 ms to commit).
      a.freeze();
      FaultCluster.sleep(Duration.ofMillis(200));
      List<Long> onA = cluster.runningOn(a);
      a.kill();
      assertThat(onA).as("jobs running on worker a when it was killed").isNotEmpty();
      long killedAt = System.nanoTime();

      Duration recovery =
          FaultCluster.await(
              () ->
                  cluster.count(
                          "SELECT count(DISTINCT x.job_id) FROM faults.executions x"
                              + " WHERE x.pid = "
                              + b.pid()
                              + " AND x.job_id IN ("
                              + join(onA)
                              + ") AND x.attempt > 1")
                      == onA.size(),
              Duration.ofSeconds(60),
              () ->
                  "the jobs worker a was running did not start again on b (pid "
                      + b.pid()
                      + "):"
                      + cluster.describe(onA));
      Duration drained = cluster.awaitDrained(ids, Duration.ofSeconds(90));

      cluster.assertInvariants();
      FaultCluster.Figures f = cluster.figures(ids);
      FaultCluster.report(
          f.line(
              "worker SIGKILL mid-job",
              String.format(
                  "jobs running on the killed JVM %d (it %s the leader), recovery %d ms"
                      + " (kill to all of them running again), drained %d ms after",
                  onA.size(),
                  wasLeader ? "was" : "was not",
                  recovery.toMillis(),
                  drained.toMillis())));
      assertThat(f.lost()).as("jobs lost").isZero();
      assertThat(f.duplicated()).as("jobs run twice at one attempt or succeeded twice").isZero();
      assertThat(f.reclaimed()).as("reclaim events").isGreaterThanOrEqualTo(onA.size());
      assertThat(
              cluster.count(
                  "SELECT count(*) FROM taskq.jobs WHERE id IN ("
                      + join(onA)
                      + ") AND status = 'succeeded' AND attempt = 2"))
          .as("the killed JVM's jobs succeeded at their second attempt")
          .isEqualTo(onA.size());
      assertThat(killedAt).isPositive();
    }
  }

  private static String join(List<Long> ids) {
    return String.join(",", ids.stream().map(String::valueOf).toList());
  }
}
