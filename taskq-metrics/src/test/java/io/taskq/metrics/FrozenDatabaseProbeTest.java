package io.taskq.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.taskq.Actor;
import io.taskq.TaskQ;
import io.taskq.TaskQConfig;
import io.taskq.metrics.http.EndpointHandler;
import io.taskq.metrics.http.HttpReply;
import io.taskq.testing.servers.PrivatePostgres;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * R1: with every PostgreSQL server process frozen (SIGSTOP), the probes answer within their own
 * budget and {@code close()} is bounded: nothing a probe or a gauge calls waits on database I/O
 * behind a lock. The cluster is the test's own (R8): freezing the shared one would stall every
 * other test run on the machine.
 */
@Tag("R1")
@Tag("R8")
class FrozenDatabaseProbeTest {
  /** {@code /ready}'s database check budget plus scheduling slack on a loaded machine. */
  private static final Duration READY_BUDGET =
      TaskQObservability.DATABASE_CHECK_TIMEOUT.plusMillis(1500);

  /** What a probe that reads only in-memory state may take. */
  private static final Duration INSTANT = Duration.ofMillis(500);

  private static final Duration SOCKET_TIMEOUT = Duration.ofSeconds(40);

  private static PrivatePostgres pg;

  @BeforeAll
  static void startCluster() {
    pg = PrivatePostgres.start();
  }

  @AfterAll
  static void stopCluster() {
    pg.close();
  }

  @Test
  void withPostgresFrozen_readyAnswers503InBudget_gettersDoNotWait_andCloseIsBounded()
      throws Exception {
    frozenProbesAndBoundedClose(TaskQConfig.defaults().databasePoolSize());
  }

  /**
   * A pool smaller than what TaskQ's loops use at once (allowed, with a WARN): with the server
   * frozen, some loop is left waiting for a connection rather than on the wire, and the close
   * deadline must end that wait too (the pool's own acquisition timeout is 30 s).
   */
  @Test
  void withPostgresFrozen_andEveryPooledConnectionStuck_closeIsStillBounded() throws Exception {
    frozenProbesAndBoundedClose(4);
  }

  private void frozenProbesAndBoundedClose(int poolSize) throws Exception {
    TaskQMetrics metrics = new TaskQMetrics();
    TaskQ taskq =
        TaskQObservability.listen(TaskQ.builder(), metrics)
            .config(
                TaskQConfig.builder()
                    .schemaName("frozen_probe_" + poolSize)
                    .databaseUrl(pg.jdbcUrl())
                    .databasePoolSize(poolSize)
                    .pollInterval(Duration.ofMillis(100))
                    .heartbeatInterval(Duration.ofMillis(200))
                    .leasePeriod(Duration.ofSeconds(5))
                    .sweepInterval(Duration.ofMillis(200))
                    .shutdownGrace(Duration.ofSeconds(1))
                    .socketTimeout(SOCKET_TIMEOUT)
                    .connectTimeout(Duration.ofSeconds(2))
                    .build())
            .build();
    TaskQObservability observability =
        TaskQObservability.attach(
            taskq,
            metrics,
            new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
            Duration.ofMillis(100));
    EndpointHandler ready = observability.routes().get("/ready");
    try {
      taskq.register(Actor.rawJson("ok", (json, ctx) -> null));
      taskq.start();
      await().atMost(Duration.ofSeconds(30)).until(taskq::isLeader);
      assertThat(ready.respond().status()).isEqualTo(200);

      pg.freeze();
      // Long enough for the maintenance loops, the worker and the sampler to be stuck in reads.
      Thread.sleep(1500);

      for (int i = 0; i < 3; i++) {
        HttpReply reply = assertTimeoutPreemptively(READY_BUDGET, ready::respond);
        assertThat(reply.status()).isEqualTo(503);
        assertThat(reply.body()).contains("\"database\":\"unreachable\"");
      }
      assertTimeoutPreemptively(INSTANT, taskq::isLeader);
      assertTimeoutPreemptively(INSTANT, taskq::health);
      assertTimeoutPreemptively(INSTANT, taskq::isRunning);
      assertTimeoutPreemptively(INSTANT, metrics::toString);

      // Bounded: the shutdown grace plus one dispatcher command timeout (1 s + 5 s here), then
      // what is on the wire is aborted; never a wait for the socket timeout, let alone the sum
      // of every statement still to run against a server that does not answer.
      assertTimeoutPreemptively(
          SOCKET_TIMEOUT.dividedBy(2),
          () -> {
            taskq.close();
          });
      assertTimeoutPreemptively(INSTANT, taskq::isClosed);
      assertThat(assertTimeoutPreemptively(READY_BUDGET, ready::respond).status()).isEqualTo(503);
    } finally {
      pg.thaw();
      observability.close();
      taskq.close();
    }
  }
}
