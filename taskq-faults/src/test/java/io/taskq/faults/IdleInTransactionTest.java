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
 * R7, fault "idle-in-transaction timeout": the cluster runs with {@code
 * idle_in_transaction_session_timeout=1s}. First, 2 000 jobs drain through two worker JVMs with
 * maintenance on and no session ends FATAL: TaskQ never leaves a transaction idle for a second.
 * Then handlers keep a transaction open and idle for 2.5 s on the pool TaskQ shares with them
 * ({@code TaskQ.builder(dataSource)}, {@code FAULTS_SHARED_POOL}): the server ends each such
 * session, the handler's attempt fails and is retried (constant 200 ms) and succeeds, and TaskQ,
 * which meets the dead connections in its pool, keeps claiming and completing: nothing lost, run
 * twice or stuck. Recovery: from the server's kill until the job's next attempt started.
 */
@Tag("R7")
@Tag("L3")
class IdleInTransactionTest {
  private static final int IDLE_JOBS = 16;

  @Test
  void sessionsKilledByTheIdleTimeout_failOnlyTheirAttempt_andTaskQCarriesOn() throws Exception {
    try (FaultCluster cluster =
        FaultCluster.start("idle-in-transaction", "idle_in_transaction_session_timeout=1s")) {
      Map<String, String> shared = Map.of("FAULTS_SHARED_POOL", "true");
      WorkerJvm a = cluster.startWorker("a", shared);
      WorkerJvm b = cluster.startWorker("b", shared);
      a.awaitReady(Duration.ofMinutes(1));
      b.awaitReady(Duration.ofMinutes(1));
      List<Long> all = new ArrayList<>();

      long fatalAtStart = Sessions.fatalSessions(cluster);
      List<Long> steady = cluster.enqueue(2000, 0);
      all.addAll(steady);
      cluster.awaitDrained(steady, Duration.ofMinutes(3));
      long fatalSteady = Sessions.fatalSessions(cluster) - fatalAtStart;

      List<JobRequest> requests = new ArrayList<>();
      for (int i = 0; i < IDLE_JOBS; i++) {
        requests.add(FaultActors.idleInTransaction(2500));
      }
      List<Long> idle = cluster.producer().jobs().enqueueAll(requests);
      all.addAll(idle);
      List<Long> around = cluster.enqueue(500, 10);
      all.addAll(around);
      cluster.awaitDrained(idle, Duration.ofMinutes(2));
      cluster.awaitDrained(around, Duration.ofMinutes(2));
      long killed = Sessions.fatalSessions(cluster) - fatalAtStart - fatalSteady;
      String in = String.join(",", idle.stream().map(String::valueOf).toList());
      long idleRetried =
          cluster.count(
              "SELECT count(*) FROM taskq.jobs WHERE status = 'succeeded' AND attempt = 2"
                  + " AND id IN ("
                  + in
                  + ")");
      long otherRetried =
          cluster.count(
              "SELECT count(*) FROM taskq.jobs WHERE attempt > 1 AND id NOT IN (" + in + ")");
      long recoveryMax =
          cluster.count(
              "SELECT COALESCE(max(extract(epoch FROM (r.started_at - x.started_at"
                  + " - interval '1 second')) * 1000), 0)::bigint FROM faults.executions x"
                  + " JOIN faults.executions r ON r.job_id = x.job_id AND r.attempt = 2"
                  + " WHERE x.attempt = 1 AND x.job_id IN ("
                  + in
                  + ")");

      cluster.assertInvariants();
      FaultCluster.Figures f = cluster.figures(all);
      FaultCluster.report(
          f.line(
              "idle-in-transaction timeout",
              String.format(
                  "timeout 1 s: sessions ended FATAL while 2000 jobs drained %d; %d handler"
                      + " transactions left idle 2.5 s: sessions killed %d, those jobs succeeded"
                      + " at attempt 2: %d, other jobs retried %d, recovery at most %d ms (kill"
                      + " to the next attempt)",
                  fatalSteady, IDLE_JOBS, killed, idleRetried, otherRetried, recoveryMax)));
      assertThat(fatalSteady)
          .as("TaskQ sessions ended by the idle-in-transaction timeout")
          .isZero();
      assertThat(killed).as("handler sessions the server ended").isGreaterThanOrEqualTo(IDLE_JOBS);
      assertThat(idleRetried)
          .as("idle jobs that succeeded at their second attempt")
          .isEqualTo(IDLE_JOBS);
      assertThat(f.lost()).as("jobs lost").isZero();
      assertThat(f.duplicated()).as("jobs run twice at one attempt").isZero();
    }
  }
}
