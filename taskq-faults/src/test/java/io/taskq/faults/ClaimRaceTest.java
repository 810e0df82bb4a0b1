package io.taskq.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * R7, "claim race": 10 000 jobs already waiting, two worker JVMs of 8 handler threads each started
 * at once, claiming from the same queue with {@code FOR UPDATE SKIP LOCKED} (L4). Every job runs
 * exactly once (one execution record, attempt 1, one lease token) and succeeds once.
 */
@Tag("R7")
@Tag("L4")
class ClaimRaceTest {
  private static final int JOBS = 10_000;

  @Test
  void twoJvmsOfEightThreads_overTenThousandJobs_runEachJobExactlyOnce() throws Exception {
    try (FaultCluster cluster = FaultCluster.start("claim-race")) {
      List<Long> ids = cluster.enqueue(JOBS, 0);
      Map<String, String> eight =
          Map.of("TASKQ_WORKER_CONCURRENCY", "8", "TASKQ_DATABASE_POOL_SIZE", "10");
      long start = System.nanoTime();
      WorkerJvm a = cluster.startWorker("a", eight);
      WorkerJvm b = cluster.startWorker("b", eight);
      a.awaitReady(Duration.ofSeconds(60));
      b.awaitReady(Duration.ofSeconds(60));
      long ready = System.nanoTime();
      cluster.awaitDrained(ids, Duration.ofSeconds(150));
      Duration drained = Duration.ofNanos(System.nanoTime() - start);

      cluster.assertInvariants();
      long onA = cluster.count("SELECT count(*) FROM faults.executions WHERE pid = " + a.pid());
      long onB = cluster.count("SELECT count(*) FROM faults.executions WHERE pid = " + b.pid());
      long distinct = cluster.count("SELECT count(DISTINCT job_id) FROM faults.executions");
      long notFirst = cluster.count("SELECT count(*) FROM faults.executions WHERE attempt <> 1");
      FaultCluster.Figures f = cluster.figures(ids);
      FaultCluster.report(
          f.line(
              "claim race, 2 JVMs x 8 threads",
              String.format(
                  "drained %d ms after the JVMs were started (both ready after %d ms),"
                      + " executions on a %d, on b %d",
                  drained.toMillis(), (ready - start) / 1_000_000, onA, onB)));
      assertThat(f.lost()).as("jobs lost").isZero();
      assertThat(f.duplicated()).as("jobs run twice").isZero();
      assertThat(f.executions()).as("executions: one per job").isEqualTo(JOBS);
      assertThat(distinct).as("jobs executed").isEqualTo(JOBS);
      assertThat(notFirst).as("executions at an attempt other than 1").isZero();
      assertThat(onA).as("a took part in the race").isPositive();
      assertThat(onB).as("b took part in the race").isPositive();
    }
  }
}
