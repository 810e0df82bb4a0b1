package io.taskq.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * R7, fault "immediate restart under load": PostgreSQL stopped with SIGQUIT (like {@code pg_ctl
 * restart -m immediate}: every session cut, crash recovery at the next start) while two worker JVMs
 * drain 600 jobs of 50 ms, and started again on the same port. The workers reconnect (pool,
 * listener, leader lock), a leader sweeps again, and every job finishes: attempts cut by the crash
 * are reclaimed and run again, none succeeds twice.
 */
@Tag("R7")
@Tag("L4")
@Tag("L11")
class PostgresRestartTest {
  @Test
  void anImmediateRestartUnderLoad_workersReconnect_andEveryJobFinishes() throws Exception {
    try (FaultCluster cluster = FaultCluster.start("postgres-restart")) {
      WorkerJvm a = cluster.worker("a");
      WorkerJvm b = cluster.worker("b");
      List<Long> ids = cluster.enqueueRunning(600, 50, 50);
      long doneBefore = cluster.succeeded();
      long restartStart = System.nanoTime();
      cluster.postgres().restartImmediately();
      long restartMs = (System.nanoTime() - restartStart) / 1_000_000;
      String restartedAt = cluster.databaseNow();
      long restarted = System.nanoTime();
      Duration firstRun =
          cluster.awaitExecutionAfter(
              restartedAt, Duration.ofSeconds(60), "no job started after the restart");
      Duration leader =
          FaultCluster.await(
              () -> cluster.producer().operations().leader().isPresent(),
              Duration.ofSeconds(60),
              "no maintenance leader after the restart");
      cluster.awaitDrained(ids, Duration.ofSeconds(90));
      long drainedMs = (System.nanoTime() - restarted) / 1_000_000;

      cluster.assertInvariants();
      FaultCluster.Figures f = cluster.figures(ids);
      FaultCluster.report(
          f.line(
              "PostgreSQL immediate restart under load",
              String.format(
                  "%d done before, restart took %d ms, first job started %d ms after it, a leader"
                      + " within %d ms, drained %d ms after",
                  doneBefore, restartMs, firstRun.toMillis(), leader.toMillis(), drainedMs)));
      assertThat(f.lost()).as("jobs lost").isZero();
      assertThat(f.duplicated()).as("jobs run twice").isZero();
      assertThat(doneBefore).as("jobs done before the restart").isLessThan(ids.size());
      assertThat(a.isAlive() && b.isAlive()).as("both workers alive").isTrue();
    }
  }
}
