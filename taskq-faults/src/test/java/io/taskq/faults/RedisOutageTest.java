package io.taskq.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * R7, fault "Redis frozen and killed": two worker JVMs whose actor is rate-limited in Redis ({@code
 * RedisRateLimiter}, {@code UnavailablePolicy.fallbackTo} the PostgreSQL window) and whose handler
 * reports progress to Redis ({@code RedisProgressStore} with the PostgreSQL store as its fallback),
 * with a 500 ms Redis command deadline. Redis is frozen (SIGSTOP: every command runs into its
 * deadline) while 100 jobs drain, thawed, then killed (SIGKILL: refused at once) while 300 more
 * drain, and started again empty. As documented (D14, {@code docs/rate-limits.md}): the limit and
 * the progress degrade to PostgreSQL, jobs keep running, no attempt fails for it and nothing is
 * lost; once Redis answers again both go back to it. Recovery: from the thaw or the restart until a
 * job's progress is in Redis again.
 */
@Tag("R7")
@Tag("M5")
class RedisOutageTest {
  @Test
  void redisFrozenThenKilled_jobsKeepRunningOnTheFallback_andRedisIsUsedAgainAfter()
      throws Exception {
    try (FaultCluster cluster = FaultCluster.start("redis-outage")) {
      Map<String, String> env =
          Map.of("FAULTS_REDIS", "true", "TASKQ_REDIS_COMMAND_TIMEOUT", "500ms");
      WorkerJvm a = cluster.startWorker("a", env);
      WorkerJvm b = cluster.startWorker("b", env);
      a.awaitReady(Duration.ofMinutes(1));
      b.awaitReady(Duration.ofMinutes(1));
      int port = cluster.redis().port();
      List<Long> all = new ArrayList<>();

      List<Long> before = cluster.enqueue(200, 0);
      all.addAll(before);
      cluster.awaitDrained(before, Duration.ofMinutes(1));
      long keysBefore = dbsize(port);
      assertThat(keysBefore)
          .as("progress and limiter keys in Redis before the outage")
          .isPositive();

      cluster.redis().freeze();
      List<Long> whileFrozen = cluster.enqueue(100, 0);
      all.addAll(whileFrozen);
      Duration frozenDrain;
      try {
        frozenDrain = cluster.awaitDrained(whileFrozen, Duration.ofMinutes(2));
      } finally {
        cluster.redis().thaw();
      }
      long thawedAt = System.nanoTime();
      long keysAtThaw = dbsize(port);
      List<Long> afterThaw = new ArrayList<>();
      cluster.awaitWithTraffic(
          afterThaw,
          () -> dbsize(port) > keysAtThaw,
          Duration.ofSeconds(30),
          "no progress reached Redis after the thaw");
      all.addAll(afterThaw);
      Duration thawRecovery = Duration.ofNanos(System.nanoTime() - thawedAt);
      cluster.awaitDrained(afterThaw, Duration.ofSeconds(30));

      cluster.redis().kill();
      List<Long> whileDead = cluster.enqueue(300, 0);
      all.addAll(whileDead);
      Duration deadDrain = cluster.awaitDrained(whileDead, Duration.ofMinutes(2));
      cluster.redis().restart();
      long restartedAt = System.nanoTime();
      List<Long> afterRestart = new ArrayList<>();
      cluster.awaitWithTraffic(
          afterRestart,
          () -> dbsize(port) > 0,
          Duration.ofMinutes(1),
          "no progress reached the restarted Redis");
      all.addAll(afterRestart);
      Duration restartRecovery = Duration.ofNanos(System.nanoTime() - restartedAt);
      Duration restartDrain = cluster.awaitDrained(afterRestart, Duration.ofMinutes(1));
      System.out.println(
          "after the restart "
              + afterRestart.size()
              + " jobs drained in "
              + restartDrain.toMillis()
              + " ms");

      cluster.assertInvariants();
      long reruns = cluster.count("SELECT count(*) FROM faults.executions WHERE attempt > 1");
      FaultCluster.Figures f = cluster.figures(all);
      FaultCluster.report(
          f.line(
              "Redis frozen and killed",
              String.format(
                  "frozen: 100 jobs drained in %d ms (500 ms command deadline), recovery %d ms"
                      + " (thaw to progress in Redis again); killed: 300 jobs drained in %d ms,"
                      + " recovery %d ms (restart to progress in Redis again); attempts failed"
                      + " for it %d",
                  frozenDrain.toMillis(),
                  thawRecovery.toMillis(),
                  deadDrain.toMillis(),
                  restartRecovery.toMillis(),
                  reruns)));
      assertThat(reruns).as("attempts that failed because Redis was away").isZero();
      assertThat(f.lost()).as("jobs lost").isZero();
      assertThat(f.duplicated()).as("jobs run twice").isZero();
    }
  }

  /** The number of keys of the Redis on {@code port} (a plain RESP {@code DBSIZE}). */
  static long dbsize(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1000);
      socket.setSoTimeout(2000);
      socket.getOutputStream().write("DBSIZE\r\n".getBytes(StandardCharsets.US_ASCII));
      StringBuilder reply = new StringBuilder();
      int ch;
      while ((ch = socket.getInputStream().read()) >= 0 && ch != '\n') {
        reply.append((char) ch);
      }
      String line = reply.toString().trim();
      if (!line.startsWith(":")) {
        throw new IllegalStateException("DBSIZE answered " + line);
      }
      return Long.parseLong(line.substring(1));
    } catch (IOException e) {
      throw new UncheckedIOException("Redis on port " + port + " did not answer DBSIZE", e);
    }
  }
}
