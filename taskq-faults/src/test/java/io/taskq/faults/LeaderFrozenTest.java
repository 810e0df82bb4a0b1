package io.taskq.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.JobRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * R7, fault "the leader's JVM frozen": the worker JVM holding the maintenance-leader lock is
 * stopped with SIGSTOP while it runs jobs. Its lock session stays open (the frozen process's kernel
 * still answers TCP), so without more the lock, and with it every leader-only sweep (reclaim,
 * promotion), stays with the frozen process for as long as it is frozen. The lock session's {@code
 * idle_session_timeout} ends it: the other JVM becomes leader, reclaims the frozen JVM's jobs and
 * runs them, and promotes delayed jobs. Thawed, the old leader finds its session gone and steps
 * down; its late writes are fenced.
 */
@Tag("R7")
@Tag("M1")
@Tag("S1")
@Tag("S3")
class LeaderFrozenTest {
  @Test
  void theLeadersJvmFrozen_anotherTakesOver_reclaimsItsJobs_andPromotes() throws Exception {
    try (FaultCluster cluster = FaultCluster.start("leader-frozen")) {
      cluster.worker("a");
      cluster.worker("b");
      WorkerJvm leader =
          awaitLeaderOtherThan(cluster, null, Duration.ofSeconds(30), "no maintenance leader");
      List<JobRequest> slow = new ArrayList<>();
      for (int i = 0; i < 12; i++) {
        slow.add(FaultActors.job(1500, 0));
      }
      List<Long> ids = new ArrayList<>(cluster.producer().jobs().enqueueAll(slow));
      FaultCluster.await(
          () -> !cluster.runningOn(leader).isEmpty(),
          Duration.ofSeconds(30),
          "the leader " + leader + " ran none of the jobs");
      leader.freeze();
      long frozenAt = System.nanoTime();
      FaultCluster.sleep(Duration.ofMillis(200));
      List<Long> onLeader = cluster.runningOn(leader);
      assertThat(onLeader).as("jobs running on the leader when frozen").isNotEmpty();
      try {
        WorkerJvm next =
            awaitLeaderOtherThan(
                cluster,
                leader,
                Duration.ofSeconds(45),
                "no other JVM became maintenance leader while the leader "
                    + leader
                    + " was frozen");
        long newLeaderMs = FaultCluster.elapsedMs(frozenAt);
        String in = String.join(",", onLeader.stream().map(String::valueOf).toList());
        FaultCluster.await(
            () ->
                cluster.count(
                        "SELECT count(*) FROM taskq.jobs WHERE id IN ("
                            + in
                            + ") AND status = 'succeeded' AND attempt = 2")
                    == onLeader.size(),
            Duration.ofSeconds(30),
            () ->
                "the frozen leader's jobs were not reclaimed and run:"
                    + cluster.describe(onLeader));
        long reclaimedMs = FaultCluster.elapsedMs(frozenAt);
        List<Long> delayed = cluster.enqueueDelayed(10, 0, Duration.ofSeconds(1));
        ids.addAll(delayed);
        Duration promoted = cluster.awaitDrained(delayed, Duration.ofSeconds(30));
        leader.thaw();
        FaultCluster.await(
            () -> leader.logText().contains("stepping down as maintenance leader"),
            Duration.ofSeconds(30),
            () -> "the thawed old leader did not step down; see " + leader.log());
        assertThat(cluster.leader()).as("the leader after the thaw").contains(next);
        cluster.awaitDrained(ids, Duration.ofSeconds(60));

        cluster.assertInvariants();
        FaultCluster.Figures f = cluster.figures(ids);
        FaultCluster.report(
            f.line(
                "leader JVM frozen",
                String.format(
                    "%d jobs running on the frozen leader, a new leader %d ms after the freeze,"
                        + " its jobs run again and succeeded %d ms after, delayed jobs promoted"
                        + " and run in %d ms, the old leader stepped down after the thaw",
                    onLeader.size(), newLeaderMs, reclaimedMs, promoted.toMillis())));
        assertThat(f.lost()).as("jobs lost").isZero();
        assertThat(f.duplicated()).as("jobs run twice at one attempt or succeeded twice").isZero();
      } finally {
        leader.thaw();
      }
    }
  }

  /** Waits for a worker JVM other than {@code not} holding the leader lock; returns it. */
  private static WorkerJvm awaitLeaderOtherThan(
      FaultCluster cluster, WorkerJvm not, Duration limit, String what) {
    WorkerJvm[] seen = new WorkerJvm[1];
    FaultCluster.await(
        () -> {
          seen[0] = cluster.leader().filter(w -> w != not).orElse(null);
          return seen[0] != null;
        },
        limit,
        what);
    return seen[0];
  }
}
