package io.taskq.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * R7, fault "SIGSTOP past the lease, then SIGCONT": worker b (never the leader) is frozen while it
 * runs jobs of 1.5 s, past its 3 s lease and past the 6 s after which its worker row is stale. The
 * leader a reclaims b's jobs and runs them to success at attempt 2. Thawed, b's handlers finish and
 * its late completions are fenced (D9: the lease token no longer matches): the fencing WARN in its
 * log, {@code JobListener.writeFenced} counted, no job succeeding twice. b then runs new jobs.
 */
@Tag("R7")
@Tag("S1")
@Tag("L4")
class WorkerFreezeTest {
  @Test
  void aWorkerFrozenPastItsLease_isFencedWhenThawed_andNoJobSucceedsTwice() throws Exception {
    try (FaultCluster cluster = FaultCluster.start("worker-freeze")) {
      WorkerJvm a = cluster.worker("a");
      WorkerJvm b = cluster.worker("b", Map.of("FAULTS_MAINTENANCE", "false"));
      List<Long> ids = cluster.enqueue(24, 1500);
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
              () ->
                  cluster.count(
                          "SELECT count(*) FROM taskq.jobs WHERE id IN ("
                              + inList
                              + ") AND status = 'succeeded' AND attempt = 2")
                      == onB.size(),
              Duration.ofSeconds(60),
              () -> "b's jobs did not succeed on a while b was frozen:" + cluster.describe(onB));
      // Past the lease, and past the 6 s after which b's worker row is stale.
      FaultCluster.sleep(Duration.ofMillis(Math.max(0, 7000 - reclaimed.toMillis())));
      long frozenFor = (System.nanoTime() - frozenAt) / 1_000_000;
      b.thaw();
      long thawedAt = System.nanoTime();

      Duration fenced =
          FaultCluster.await(
              () -> b.fencedWrites() >= 1,
              Duration.ofSeconds(30),
              () -> "b reported no fenced write after the thaw; see " + b.log());
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
      List<Long> more = cluster.enqueue(40, 50);
      Duration bWorksAgain =
          FaultCluster.await(
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
              () -> "b ran no new job after the thaw; see " + b.log());
      List<Long> all = new java.util.ArrayList<>(ids);
      all.addAll(more);
      cluster.awaitDrained(all, Duration.ofSeconds(60));

      cluster.assertInvariants();
      FaultCluster.Figures f = cluster.figures(all);
      FaultCluster.report(
          f.line(
              "worker SIGSTOP past the lease, SIGCONT",
              String.format(
                  "jobs running on the frozen JVM %d, frozen %d ms, reclaimed and succeeded"
                      + " elsewhere %d ms after the freeze, first fenced write %d ms after the"
                      + " thaw, frozen handlers finished %d ms after, new jobs on it %d ms after,"
                      + " its fenced writes %d",
                  onB.size(),
                  frozenFor,
                  reclaimed.toMillis(),
                  fenced.toMillis(),
                  finishedLate.toMillis(),
                  bWorksAgain.toMillis(),
                  b.fencedWrites())));
      assertThat(thawedAt).isPositive();
      assertThat(f.lost()).as("jobs lost").isZero();
      assertThat(f.duplicated()).as("jobs run twice at one attempt or succeeded twice").isZero();
      assertThat(f.fencedWrites()).as("fenced writes recorded by b").isPositive();
      assertThat(Files.readString(b.log()))
          .as("b's log")
          .contains("changed nothing: the lease was taken over");
      assertThat(a.isAlive()).isTrue();
    }
  }

  private static String join(List<Long> ids) {
    return String.join(",", ids.stream().map(String::valueOf).toList());
  }
}
