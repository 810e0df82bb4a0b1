package io.taskq.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * R7, fault "PostgreSQL frozen 30 s": every server process stopped with SIGSTOP while two worker
 * JVMs drain 400 jobs of 100 ms, then SIGCONT. The workers' reads time out (socket timeout 10 s)
 * and their loops retry; after the thaw they run again and the queue drains: nothing lost, nothing
 * run twice at one attempt or succeeded twice (leases that passed during the freeze are reclaimed,
 * the late completions fenced). Recovery: thaw to the first execution started after it.
 */
@Tag("R7")
@Tag("L4")
@Tag("L11")
class PostgresFrozenTest {
  private static final Duration FROZEN = Duration.ofSeconds(30);

  @Test
  void postgresFrozenFor30s_workersRecoverAfterTheThaw_andNothingIsLost() throws Exception {
    try (FaultCluster cluster = FaultCluster.start("postgres-frozen")) {
      WorkerJvm a = cluster.worker("a");
      WorkerJvm b = cluster.worker("b");
      List<Long> ids = cluster.enqueue(400, 100);
      FaultCluster.await(
          () -> cluster.count("SELECT count(*) FROM faults.executions") >= 20,
          Duration.ofSeconds(30),
          "the workers did not start running jobs");
      long doneBefore = cluster.count("SELECT count(*) FROM taskq.jobs WHERE status = 'succeeded'");
      cluster.postgres().freeze();
      FaultCluster.sleep(FROZEN);
      cluster.postgres().thaw();
      String thawedAt = cluster.databaseNow();
      long thawed = System.nanoTime();
      Duration firstRun =
          FaultCluster.await(
              () ->
                  cluster.count(
                          "SELECT count(*) FROM faults.executions WHERE started_at > '"
                              + thawedAt
                              + "'")
                      > 0,
              Duration.ofSeconds(60),
              "no job started after the thaw");
      cluster.awaitDrained(ids, Duration.ofSeconds(90));
      long drainedMs = (System.nanoTime() - thawed) / 1_000_000;

      cluster.assertInvariants();
      FaultCluster.Figures f = cluster.figures(ids);
      FaultCluster.report(
          f.line(
              "PostgreSQL frozen 30 s",
              String.format(
                  "%d done before the freeze, first job started %d ms after the thaw, drained %d"
                      + " ms after the thaw",
                  doneBefore, firstRun.toMillis(), drainedMs)));
      assertThat(f.lost()).as("jobs lost").isZero();
      assertThat(f.duplicated()).as("jobs run twice").isZero();
      assertThat(doneBefore).as("jobs done before the freeze").isLessThan(ids.size());
      assertThat(a.isAlive() && b.isAlive()).as("both workers alive").isTrue();
    }
  }
}
