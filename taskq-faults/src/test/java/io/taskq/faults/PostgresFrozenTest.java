package io.taskq.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.JobRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * R7 and R1, fault "PostgreSQL frozen 30 s": every server process stopped with SIGSTOP while two
 * worker JVMs run {@value #FROZEN_JOBS} jobs of 5 s, then SIGCONT. Worker a runs on TaskQ's own
 * pool; b on an application's {@code DataSource} (HikariCP) with 3 s connection and socket
 * timeouts. Both have free handler slots, so their dispatchers keep claiming into the frozen
 * server, and b's claims fail and back off during the freeze (a's wait out HikariCP's 30 s), while
 * the running handlers' writes hang until their socket timeout. Promised and checked:
 *
 * <ul>
 *   <li>during the freeze, what a probe or a gauge calls in each worker ({@code isLeader()}, {@code
 *       health()}, {@code isRunning()}, {@code isClosed()}) answers within {@value
 *       #PROBE_BUDGET_MS} ms every time and never falls silent for {@value #PROBE_SILENCE_MS} ms
 *       (R1);
 *   <li>after the thaw the frozen jobs run again (their handlers' writes failed, so did their
 *       attempts), 400 new jobs of 100 ms drain within 60 s, and then each worker runs all its
 *       {@value #SLOTS} handler slots at once within {@value #CAPACITY_SECONDS} s (no slot is lost
 *       to a claim, a write or a handler the freeze cut), on jobs longer than the lease that finish
 *       at their first attempt (the heartbeat renews again);
 *   <li>nothing lost, nothing run twice at one attempt or succeeded twice, every invariant holds.
 * </ul>
 *
 * Recovery: thaw to the first execution started after it; thaw to every slot busy.
 */
@Tag("R7")
@Tag("R1")
@Tag("L4")
@Tag("L11")
class PostgresFrozenTest {
  private static final Duration FROZEN = Duration.ofSeconds(30);
  private static final int SLOTS = 4;
  private static final int FROZEN_JOBS = 2;
  private static final long PROBE_BUDGET_MS = 500;
  private static final long PROBE_SILENCE_MS = 2000;
  private static final long CAPACITY_SECONDS = 20;
  private static final long CAPACITY_JOB_MS = FaultCluster.LEASE.toMillis() + 1000;
  private static final Map<String, String> PROBING =
      Map.of("FAULTS_PROBE_MS", "250", "TASKQ_WORKER_CONCURRENCY", Integer.toString(SLOTS));

  /**
   * Worker b runs on an application's pool with 3 s connection and socket timeouts: its claims
   * fail, and back off, several times during the freeze.
   */
  private static final Map<String, String> SHARED_POOL =
      Map.of(
          "FAULTS_PROBE_MS",
          "250",
          "TASKQ_WORKER_CONCURRENCY",
          Integer.toString(SLOTS),
          "FAULTS_SHARED_POOL",
          "true",
          "FAULTS_POOL_CONNECTION_TIMEOUT",
          "3000",
          "TASKQ_SOCKET_TIMEOUT",
          "3s",
          "TASKQ_DISPATCHER_COMMAND_TIMEOUT",
          "2s");

  @Test
  void postgresFrozenFor30s_probesAnswer_andWorkersRecoverWithEverySlot() throws Exception {
    try (FaultCluster cluster = FaultCluster.start("postgres-frozen")) {
      List<WorkerJvm> workers =
          List.of(cluster.worker("a", PROBING), cluster.worker("b", SHARED_POOL));
      List<Long> all = new ArrayList<>(enqueueFrozenJobs(cluster));
      FaultCluster.await(
          () -> cluster.count("SELECT count(*) FROM faults.executions") >= FROZEN_JOBS,
          Duration.ofSeconds(30),
          "the workers did not start the jobs to freeze");
      workers.forEach(w -> w.probes().reset());
      cluster.postgres().freeze();
      FaultCluster.sleep(FROZEN);
      List<WorkerJvm.ProbeWatch.Figures> probes =
          workers.stream().map(w -> w.probes().figures()).toList();
      cluster.postgres().thaw();
      String thawedAt = cluster.databaseNow();
      long thawed = System.nanoTime();
      Duration firstRun =
          cluster.awaitExecutionAfter(
              thawedAt, Duration.ofSeconds(60), "no job started after the thaw");
      List<Long> fresh = cluster.enqueue(400, 100);
      all.addAll(fresh);
      cluster.awaitDrained(all, Duration.ofSeconds(60));
      long drainedMs = (System.nanoTime() - thawed) / 1_000_000;
      assertProbesAnswered(workers, probes);
      long fullMs = (fullCapacity(cluster, workers, all) - thawed) / 1_000_000;

      cluster.assertInvariants();
      FaultCluster.Figures f = cluster.figures(all);
      FaultCluster.report(
          f.line(
              "PostgreSQL frozen 30 s",
              String.format(
                  "probes during the freeze %s, first job started %d ms after the thaw, 400 new"
                      + " jobs drained %d ms after the thaw, every slot of both JVMs busy %d ms"
                      + " after the thaw",
                  probes, firstRun.toMillis(), drainedMs, fullMs)));
      assertThat(f.lost()).as("jobs lost").isZero();
      assertThat(f.duplicated()).as("jobs run twice").isZero();
      assertThat(workers).as("workers alive").allMatch(WorkerJvm::isAlive);
    }
  }

  /** Jobs of 5 s whose later attempts sleep 0: the frozen ones rerun at once after the thaw. */
  private static List<Long> enqueueFrozenJobs(FaultCluster cluster) {
    List<JobRequest> jobs = new ArrayList<>();
    for (int i = 0; i < FROZEN_JOBS; i++) {
      jobs.add(FaultActors.job(5000, 0));
    }
    return cluster.producer().jobs().enqueueAll(jobs);
  }

  /** R1: each worker's probe calls answered in budget all through the freeze. */
  private static void assertProbesAnswered(
      List<WorkerJvm> workers, List<WorkerJvm.ProbeWatch.Figures> probes) {
    for (int i = 0; i < workers.size(); i++) {
      WorkerJvm.ProbeWatch.Figures p = probes.get(i);
      String who = workers.get(i) + " while PostgreSQL was frozen (" + p + ")";
      assertThat(p.slowestMs()).as("slowest probe call of " + who).isLessThan(PROBE_BUDGET_MS);
      assertThat(p.longestGapMs())
          .as("longest probe silence of " + who)
          .isLessThan(PROBE_SILENCE_MS);
      assertThat(p.count()).as("probes answered by " + who).isGreaterThan(FROZEN.toSeconds());
    }
  }

  /**
   * Enqueues two jobs of 3 s per handler slot of the workers and waits until each worker runs
   * {@value #SLOTS} at once, then until they are done.
   *
   * @return {@link System#nanoTime()} when every slot was busy
   */
  private static long fullCapacity(FaultCluster cluster, List<WorkerJvm> workers, List<Long> all) {
    // Longer than the lease: only the heartbeat, working again, keeps them from being reclaimed.
    List<Long> slow = cluster.enqueue(2 * SLOTS * workers.size(), CAPACITY_JOB_MS);
    all.addAll(slow);
    Duration limit = Duration.ofSeconds(CAPACITY_SECONDS);
    long[] most = new long[workers.size()];
    FaultCluster.await(
        () -> {
          boolean full = true;
          for (int i = 0; i < workers.size(); i++) {
            int running = cluster.runningOn(workers.get(i)).size();
            most[i] = Math.max(most[i], running);
            full &= running >= SLOTS;
          }
          return full;
        },
        limit,
        () ->
            "after the thaw not every worker ran "
                + SLOTS
                + " jobs at once; most at once per worker "
                + java.util.Arrays.toString(most)
                + " for "
                + workers
                + ", by status "
                + cluster.statusCounts());
    long full = System.nanoTime();
    cluster.awaitDrained(slow, Duration.ofSeconds(30));
    String in = String.join(",", slow.stream().map(String::valueOf).toList());
    assertThat(
            cluster.count(
                "SELECT count(*) FROM taskq.jobs WHERE id IN ("
                    + in
                    + ") AND status = 'succeeded' AND attempt = 1"))
        .as("jobs longer than the lease, after the thaw, done at their first attempt")
        .isEqualTo(slow.size());
    return full;
  }
}
