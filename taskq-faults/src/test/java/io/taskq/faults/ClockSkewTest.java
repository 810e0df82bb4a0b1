package io.taskq.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * R7, fault "clock skew of 5 minutes": the leader JVM's wall clock runs 5 minutes ahead (or behind)
 * and the other worker JVM's 5 minutes the other way (libfaketime, {@link Skew}). Leases,
 * heartbeats and the reclaim sweep are judged by the database's clock (L4): a leader whose own
 * clock ran ahead would otherwise see every lease long expired and reclaim running jobs (a double
 * run); one behind would reclaim a dead worker's jobs 5 minutes late; a worker behind would write
 * leases already expired. Checked: jobs that run for longer than the lease, renewed by heartbeat,
 * are never reclaimed and run once; a worker frozen past its lease is reclaimed within seconds.
 * Recovery: from the freeze until every job the frozen JVM held runs again elsewhere.
 */
@Tag("R7")
@Tag("L4")
@Tag("S1")
class ClockSkewTest {
  @ParameterizedTest(name = "leader {0} min, worker {1} min")
  @CsvSource({"5, -5", "-5, 5"})
  void leasesAndReclaimFollowTheDatabaseClock_notASkewedJvmClock(int leaderMin, int workerMin)
      throws Exception {
    String scenario =
        String.format("clock skew leader %+d min, worker %+d min", leaderMin, workerMin);
    try (FaultCluster cluster = FaultCluster.start("clock-skew" + leaderMin)) {
      WorkerJvm a = cluster.worker("a", Skew.env(Duration.ofMinutes(leaderMin)));
      Duration aOffset = Skew.measured(a);
      Map<String, String> follower = new HashMap<>(Skew.env(Duration.ofMinutes(workerMin)));
      follower.put("FAULTS_MAINTENANCE", "false"); // never leads: a's clock judges the leases
      WorkerJvm b = cluster.worker("b", follower);
      Duration bOffset = Skew.measured(b);
      assertThat(aOffset.toSeconds())
          .as("the leader's clock offset")
          .isBetween(leaderMin * 60L - 30, leaderMin * 60L + 30);
      assertThat(bOffset.toSeconds())
          .as("the worker's clock offset")
          .isBetween(workerMin * 60L - 30, workerMin * 60L + 30);
      FaultCluster.await(
          () -> cluster.leader().map(l -> l == a).orElse(false),
          Duration.ofSeconds(30),
          "worker a did not become the leader");

      // Jobs longer than the lease (3 s): only the heartbeat keeps them, judged by the database.
      List<Long> all = new ArrayList<>();
      List<Long> longJobs = cluster.enqueue(24, FaultCluster.LEASE.toMillis() + 2000);
      all.addAll(longJobs);
      cluster.awaitDrained(longJobs, Duration.ofSeconds(90));
      long reclaimedEarly =
          cluster.count("SELECT count(*) FROM taskq.job_events WHERE kind = 'reclaimed'");
      long reruns = cluster.count("SELECT count(*) FROM faults.executions WHERE attempt > 1");

      // A worker frozen past its lease: reclaimed by the database clock, within seconds.
      List<Long> frozenJobs = cluster.enqueue(16, 4000);
      all.addAll(frozenJobs);
      List<Long> onB = cluster.awaitRunningOn(b, 2, Duration.ofSeconds(30));
      b.freeze();
      Duration recovery;
      try {
        recovery =
            cluster.awaitRunAgainOn(
                a,
                onB,
                Duration.ofMinutes(1),
                "the jobs frozen worker b held (" + onB + ") did not run again on a");
      } finally {
        b.thaw();
      }
      cluster.awaitDrained(frozenJobs, Duration.ofSeconds(90));

      cluster.assertInvariants();
      FaultCluster.Figures f = cluster.figures(all);
      FaultCluster.report(
          f.line(
              scenario,
              String.format(
                  "measured offsets %+d s / %+d s; 24 jobs of %d ms (lease %d s): %d reclaimed,"
                      + " %d re-run; worker frozen with %d jobs: recovery %d ms (freeze to all"
                      + " running again)",
                  aOffset.toSeconds(),
                  bOffset.toSeconds(),
                  FaultCluster.LEASE.toMillis() + 2000,
                  FaultCluster.LEASE.toSeconds(),
                  reclaimedEarly,
                  reruns,
                  onB.size(),
                  recovery.toMillis())));
      assertThat(reclaimedEarly).as("jobs reclaimed while their worker renewed the lease").isZero();
      assertThat(reruns).as("jobs run more than once while renewed").isZero();
      assertThat(f.lost()).as("jobs lost").isZero();
      assertThat(f.duplicated()).as("jobs run twice at one attempt").isZero();
    }
  }
}
