package io.taskq.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.testing.servers.PrivatePgBouncer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * R7, fault "PgBouncer in transaction mode": both worker JVMs reach PostgreSQL through Debian's
 * PgBouncer 1.18 in {@code pool_mode=transaction} with 4 server connections for their 12 pooled
 * ones and the recorder's, with {@code TASKQ_DATABASE_DIRECT_URL} for what needs a session (R2:
 * migrations' and leader's locks, LISTEN). Jobs run through the pooler; a worker SIGKILLed mid-job
 * is reclaimed through it; wake-ups work (a one-minute poll, jobs picked up in seconds). Recovery:
 * from the kill until every job the killed JVM ran has started again elsewhere.
 */
@Tag("R7")
@Tag("R2")
@Tag("D8")
class PgBouncerTest {
  @Test
  void workersBehindATransactionPooler_runReclaimAndWake_noneLostOrDuplicated() throws Exception {
    try (FaultCluster cluster = FaultCluster.start("pgbouncer");
        PrivatePgBouncer bouncer = PrivatePgBouncer.inFrontOf(cluster.postgres().port())) {
      Map<String, String> env =
          Map.of(
              "TASKQ_DATABASE_URL", bouncer.jdbcUrl("postgres"),
              "TASKQ_DATABASE_DIRECT_URL", cluster.postgres().jdbcUrl(),
              "TASKQ_POLL_INTERVAL", "60s");
      WorkerJvm a = cluster.startWorker("a", env);
      WorkerJvm b = cluster.startWorker("b", env);
      a.awaitReady(Duration.ofMinutes(1));
      b.awaitReady(Duration.ofMinutes(1));
      List<Long> all = new ArrayList<>();

      List<Long> quick = cluster.enqueue(1000, 0);
      all.addAll(quick);
      Duration drained = cluster.awaitDrained(quick, Duration.ofMinutes(2));
      // A one-minute poll: only a wake-up (LISTEN on the direct URL) explains this.
      List<Long> woken = cluster.enqueue(20, 0);
      all.addAll(woken);
      Duration wake = cluster.awaitDrained(woken, Duration.ofSeconds(10));

      List<Long> slow = cluster.enqueue(200, 200);
      all.addAll(slow);
      List<Long> onB = cluster.awaitRunningOn(b, 2, Duration.ofSeconds(30));
      b.kill();
      Duration recovery =
          cluster.awaitRunAgainOn(
              a,
              onB,
              Duration.ofMinutes(1),
              "the jobs killed worker b ran (" + onB + ") did not start again on a");
      cluster.awaitDrained(slow, Duration.ofMinutes(2));

      cluster.assertInvariants();
      FaultCluster.Figures f = cluster.figures(all);
      FaultCluster.report(
          f.line(
              "PgBouncer transaction mode",
              String.format(
                  "1000 jobs through the pooler in %d ms, a wake-up in %d ms (poll 60 s), worker"
                      + " SIGKILLed with %d jobs: recovery %d ms (kill to all running again)",
                  drained.toMillis(), wake.toMillis(), onB.size(), recovery.toMillis())));
      assertThat(f.lost()).as("jobs lost").isZero();
      assertThat(f.duplicated()).as("jobs run twice at one attempt").isZero();
    }
  }
}
