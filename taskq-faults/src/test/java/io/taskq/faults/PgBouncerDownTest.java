package io.taskq.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.JobRequest;
import io.taskq.testing.servers.PrivatePgBouncer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * R7, R2, fault "the pooler in front of the leader stops": worker JVM a reaches PostgreSQL through
 * PgBouncer in transaction mode for its pool and directly for its leader lock ({@code
 * TASKQ_DATABASE_DIRECT_URL}); worker b goes straight to PostgreSQL. a leads; PgBouncer is stopped
 * for good while a runs jobs, so every connection a's pool asks for is refused while its lock
 * session stays healthy (what the chaos soak met). a gives the lock up: b becomes leader, reclaims
 * a's jobs, runs them again and promotes delayed jobs; nothing is lost or run twice. Twice: a on an
 * application pool with a 1 s connection timeout ({@code TaskQ.builder(dataSource)}: its loops keep
 * proving the lock between failures, so only the pool outage rule ends its term, after the lock
 * session's idle limit, 15 s), and a on TaskQ's own pool (HikariCP's 30 s connection timeout, the
 * soak's setup: its loops wait on the pool longer than the idle limit, so the server ends the idle
 * lock session first).
 */
@Tag("R7")
@Tag("R2")
@Tag("M1")
@Tag("S1")
@Tag("S3")
class PgBouncerDownTest {
  @Test
  void thePoolerOfTheLeaderStops_anApplicationPool_theLeaderGivesUpTheLock() throws Exception {
    run(
        "pgbouncer-down-app-pool",
        Map.of("FAULTS_SHARED_POOL", "true", "FAULTS_POOL_CONNECTION_TIMEOUT", "1000"),
        "application pool, 1 s connection timeout");
  }

  @Test
  void thePoolerOfTheLeaderStops_taskqsOwnPool_theLeaderLosesTheLock() throws Exception {
    run("pgbouncer-down-own-pool", Map.of(), "TaskQ's own pool, 30 s connection timeout");
  }

  private static void run(String name, Map<String, String> pool, String what) throws Exception {
    try (FaultCluster cluster = FaultCluster.start(name)) {
      PrivatePgBouncer bouncer = PrivatePgBouncer.inFrontOf(cluster.postgres().port());
      try {
        stopThePoolerOfTheLeader(cluster, bouncer, pool, what);
      } finally {
        bouncer.close();
      }
    }
  }

  private static void stopThePoolerOfTheLeader(
      FaultCluster cluster, PrivatePgBouncer bouncer, Map<String, String> pool, String what)
      throws Exception {
    WorkerJvm pooled = pooledLeader(cluster, bouncer, pool);
    WorkerJvm direct = cluster.worker("b");
    List<Long> ids = new ArrayList<>(enqueueSlow(cluster));
    FaultCluster.await(
        () -> !cluster.runningOn(pooled).isEmpty(),
        Duration.ofSeconds(30),
        "worker a ran none of the jobs");
    List<Long> onPooled = cluster.runningOn(pooled);

    // Stopped for good: every connection to its port is refused from now on.
    bouncer.close();
    long stoppedAt = System.nanoTime();
    FaultCluster.await(
        () -> cluster.leader().filter(direct::equals).isPresent(),
        Duration.ofSeconds(40),
        "worker b did not become maintenance leader after the PgBouncer of the leader a stopped");
    long newLeaderMs = FaultCluster.elapsedMs(stoppedAt);
    awaitRunAgain(cluster, onPooled);
    long reclaimedMs = FaultCluster.elapsedMs(stoppedAt);
    List<Long> delayed = cluster.enqueueDelayed(10, 0, Duration.ofSeconds(1));
    ids.addAll(delayed);
    Duration promoted = cluster.awaitDrained(delayed, Duration.ofSeconds(30));
    cluster.awaitDrained(ids, Duration.ofSeconds(60));
    FaultCluster.await(
        () -> pooled.logText().contains("stepping down as maintenance leader"),
        Duration.ofSeconds(60),
        () -> "worker a did not log its step-down; see " + pooled.log());
    assertThat(cluster.leader()).as("the leader at the end").contains(direct);

    cluster.assertInvariants();
    FaultCluster.Figures f = cluster.figures(ids);
    FaultCluster.report(
        f.line(
            "PgBouncer of the leader stopped (" + what + ")",
            String.format(
                "%d jobs running on the pooled leader, a new leader %d ms after PgBouncer"
                    + " stopped, its jobs run again and succeeded %d ms after, delayed jobs"
                    + " promoted and run in %d ms",
                onPooled.size(), newLeaderMs, reclaimedMs, promoted.toMillis())));
    assertThat(f.lost()).as("jobs lost").isZero();
    assertThat(f.duplicated()).as("jobs run twice at one attempt or succeeded twice").isZero();
  }

  /** Starts worker a, its pool through the pooler, its lock direct; waits until it leads. */
  private static WorkerJvm pooledLeader(
      FaultCluster cluster, PrivatePgBouncer bouncer, Map<String, String> pool) {
    Map<String, String> env = new HashMap<>(pool);
    env.put("TASKQ_DATABASE_URL", bouncer.jdbcUrl("postgres"));
    env.put("TASKQ_DATABASE_DIRECT_URL", cluster.postgres().jdbcUrl());
    WorkerJvm pooled = cluster.worker("a", env);
    FaultCluster.await(
        () -> cluster.leader().filter(pooled::equals).isPresent(),
        Duration.ofSeconds(30),
        "worker a (behind PgBouncer) did not become maintenance leader");
    return pooled;
  }

  private static List<Long> enqueueSlow(FaultCluster cluster) {
    List<JobRequest> slow = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      slow.add(FaultActors.job(1500, 0));
    }
    return cluster.producer().jobs().enqueueAll(slow);
  }

  /** Waits until every job that ran on the cut-off worker succeeded at a later attempt. */
  private static void awaitRunAgain(FaultCluster cluster, List<Long> onPooled) {
    String in = String.join(",", onPooled.stream().map(String::valueOf).toList());
    FaultCluster.await(
        () ->
            cluster.count(
                    "SELECT count(*) FROM taskq.jobs WHERE id IN ("
                        + in
                        + ") AND status = 'succeeded' AND attempt > 1")
                == onPooled.size(),
        Duration.ofSeconds(30),
        () -> "the jobs of worker a were not reclaimed and run:" + cluster.describe(onPooled));
  }
}
