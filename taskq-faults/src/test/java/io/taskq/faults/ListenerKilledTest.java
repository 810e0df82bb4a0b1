package io.taskq.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * R7, fault "listener killed": two worker JVMs polling only once a minute, so within seconds only a
 * wake-up (LISTEN/NOTIFY, L4) explains a pickup. Three times, the {@code LISTEN} session of both
 * JVMs is ended with {@code pg_terminate_backend} and 100 jobs are enqueued at once, while nobody
 * listens (their NOTIFY reaches no one). Each listener reconnects with backoff and signals its
 * dispatcher once after the reconnect, so those jobs are not stranded until the next poll; jobs
 * enqueued after the reconnect are woken as before. Recovery: from the kill to both listeners back,
 * and to the stranded jobs done.
 */
@Tag("R7")
@Tag("L4")
class ListenerKilledTest {
  private static final Duration POLL = Duration.ofMinutes(1);

  @Test
  void listenSessionsTerminated_listenersReconnect_andNoJobWaitsForThePoll() throws Exception {
    try (FaultCluster cluster = FaultCluster.start("listener-killed")) {
      Map<String, String> env = Map.of("TASKQ_POLL_INTERVAL", POLL.toSeconds() + "s");
      WorkerJvm a = cluster.startWorker("a", env);
      WorkerJvm b = cluster.startWorker("b", env);
      a.awaitReady(Duration.ofMinutes(1));
      b.awaitReady(Duration.ofMinutes(1));
      List<Long> all = new ArrayList<>();
      List<WorkerJvm> both = List.of(a, b);
      awaitListening(cluster, both, List.of());
      all.addAll(wokenWithin(cluster, Duration.ofSeconds(10), "before any kill"));

      List<Long> reconnects = new ArrayList<>();
      List<Long> strandedDone = new ArrayList<>();
      for (int round = 1; round <= 3; round++) {
        List<Integer> killed = new ArrayList<>();
        for (WorkerJvm w : both) {
          killed.addAll(Sessions.listenBackends(cluster, w));
        }
        long killedAt = System.nanoTime();
        assertThat(Sessions.terminate(cluster, killed))
            .as("listen sessions terminated in round %d", round)
            .isEqualTo(2);
        List<Long> stranded = cluster.enqueue(100, 0);
        all.addAll(stranded);
        awaitListening(cluster, both, killed);
        reconnects.add(millisSince(killedAt));
        // Far below the one-minute poll: the reconnect's own signal picked them up.
        cluster.awaitDrained(stranded, Duration.ofSeconds(30));
        strandedDone.add(millisSince(killedAt));
        all.addAll(wokenWithin(cluster, Duration.ofSeconds(10), "after round " + round));
      }

      cluster.assertInvariants();
      FaultCluster.Figures f = cluster.figures(all);
      FaultCluster.report(
          f.line(
              "listener killed",
              String.format(
                  "3 rounds of both LISTEN sessions terminated, recovery %s ms (kill to both"
                      + " listening again), jobs enqueued meanwhile done %s ms after the kill"
                      + " (poll interval %d s)",
                  reconnects, strandedDone, POLL.toSeconds())));
      assertThat(f.lost()).as("jobs lost").isZero();
      assertThat(f.duplicated()).as("jobs run twice").isZero();
    }
  }

  /** Enqueues 20 jobs and waits for them within {@code limit}: only a wake-up is that fast. */
  private static List<Long> wokenWithin(FaultCluster cluster, Duration limit, String when) {
    List<Long> ids = cluster.enqueue(20, 0);
    try {
      cluster.awaitDrained(ids, limit);
    } catch (AssertionError e) {
      throw new AssertionError("no wake-up " + when + ": " + e.getMessage(), e);
    }
    return ids;
  }

  /** Waits until every worker has a LISTEN session that is not one of {@code gone}. */
  private static void awaitListening(
      FaultCluster cluster, List<WorkerJvm> workers, List<Integer> gone) {
    FaultCluster.await(
        () ->
            workers.stream()
                .allMatch(
                    w ->
                        Sessions.listenBackends(cluster, w).stream()
                            .anyMatch(pid -> !gone.contains(pid))),
        Duration.ofSeconds(30),
        "a worker JVM did not listen (again)");
  }

  private static long millisSince(long nanos) {
    return (System.nanoTime() - nanos) / 1_000_000;
  }
}
