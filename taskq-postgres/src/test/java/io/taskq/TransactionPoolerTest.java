package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.taskq.postgres.internal.TestHooks;
import io.taskq.postgres.internal.worker.WorkerProbe;
import io.taskq.spi.MaintenanceListener;
import io.taskq.testing.servers.PrivatePgBouncer;
import io.taskq.testing.servers.PrivatePostgres;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * R2 (D8): TaskQ behind a real PgBouncer 1.18 in {@code pool_mode=transaction} (Debian's package,
 * started by the test in front of a private cluster). With {@code TASKQ_DATABASE_DIRECT_URL} it
 * starts (the migrations' session lock on the direct URL), enqueues, claims and runs jobs through
 * the pooler (its pool on {@code prepareThreshold=0}), wakes on NOTIFY, and its leadership stays
 * put. Without the direct URL it refuses to start, naming the pooler.
 */
@Tag("R2")
@Tag("D8")
class TransactionPoolerTest {
  private static PrivatePostgres pg;
  private static PrivatePgBouncer bouncer;

  @BeforeAll
  static void startServers() {
    pg = PrivatePostgres.start();
    bouncer = PrivatePgBouncer.inFrontOf(pg.port());
  }

  @AfterAll
  static void stopServers() {
    if (bouncer != null) {
      bouncer.close();
    }
    if (pg != null) {
      pg.close();
    }
  }

  private static TaskQConfig.Builder settings(String schema) {
    return TaskQConfig.builder()
        .schemaName(schema)
        .databaseUrl(bouncer.jdbcUrl("postgres"))
        .databasePoolSize(6)
        .pollInterval(Duration.ofSeconds(30))
        .heartbeatInterval(Duration.ofMillis(500))
        .shutdownGrace(Duration.ofSeconds(5));
  }

  @Test
  void withTheDirectUrl_startsRunsJobsWakesAndKeepsItsLeader() throws Exception {
    List<Boolean> leaderChanges = new CopyOnWriteArrayList<>();
    AtomicInteger runs = new AtomicInteger();
    TaskQConfig config = settings("r2_direct").databaseDirectUrl(pg.jdbcUrl()).build();
    try (TaskQ taskq =
        TaskQ.builder()
            .config(config)
            .listener(
                new MaintenanceListener() {
                  @Override
                  public void leaderChanged(boolean isLeader) {
                    leaderChanges.add(isLeader);
                  }
                })
            .build()) {
      taskq.register(
          Actor.rawJson(
              "work",
              (json, ctx) -> {
                runs.incrementAndGet();
                return json;
              }));
      taskq.start();

      List<Long> ids = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        ids.add(taskq.jobs().enqueue(JobRequest.of("work", "{\"n\": " + i + "}")));
      }
      for (long id : ids) {
        await().atMost(Duration.ofSeconds(20)).until(() -> succeeded(taskq, id));
      }
      assertThat(runs.get()).isEqualTo(20);

      // A wake-up: the poll interval is 30 s, so only the NOTIFY explains a pickup within seconds.
      WorkerProbe worker = TestHooks.of(taskq).worker();
      await().atMost(Duration.ofSeconds(10)).until(() -> worker.listenerConnects() > 0);
      long woken = worker.wakeNotifications();
      long late = taskq.jobs().enqueue(JobRequest.of("work", "{\"late\": true}"));
      await().atMost(Duration.ofSeconds(5)).until(() -> succeeded(taskq, late));
      assertThat(worker.wakeNotifications()).isGreaterThan(woken);

      // Leadership: taken once and kept.
      await().atMost(Duration.ofSeconds(15)).until(taskq::isLeader);
      for (int i = 0; i < 20; i++) {
        assertThat(taskq.isLeader()).as("still the leader after %d00 ms", i).isTrue();
        Thread.sleep(100);
      }
      assertThat(leaderChanges).containsExactly(true);
    }
  }

  @Test
  void withoutTheDirectUrl_startIsRefusedNamingThePooler() {
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    PrintStream original = System.err;
    TaskQ taskq = TaskQ.builder().config(settings("r2_refused").build()).build();
    taskq.register(Actor.rawJson("work", (json, ctx) -> json));
    try {
      System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
      assertThatThrownBy(taskq::start)
          .isInstanceOf(TaskQConfigException.class)
          .hasMessageContaining(
              "TASKQ_DATABASE_URL (database postgres on 127.0.0.1:" + bouncer.port())
          .hasMessageContaining("transaction-pooling proxy (such as PgBouncer")
          .hasMessageContaining("set TASKQ_DATABASE_DIRECT_URL");
    } finally {
      System.setErr(original);
      taskq.close();
    }
    assertThat(captured.toString(StandardCharsets.UTF_8))
        .contains("ERROR")
        .contains("TaskQ refuses to start")
        .contains("transaction-pooling proxy");
  }

  @Test
  void aProducerThatNeedsNoSession_enqueuesThroughThePoolerWithAWarning() {
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    PrintStream original = System.err;
    TaskQConfig config = settings("r2_producer").databaseDirectUrl(pg.jdbcUrl()).build();
    try (TaskQ setup = TaskQ.producer().config(config).build()) {
      setup.start(); // migrates through the direct URL
    } catch (java.sql.SQLException e) {
      throw new AssertionError(e);
    }
    TaskQConfig pooledOnly = settings("r2_producer").build();
    try (TaskQ producer = TaskQ.producer().config(pooledOnly).migrate(false).build()) {
      System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
      producer.start();
      System.setErr(original);
      for (int i = 0; i < 12; i++) { // past PgJDBC's default prepareThreshold of 5
        long id = producer.jobs().enqueue(JobRequest.of("work", "{}"));
        assertThat(producer.jobs().find(id)).isPresent();
      }
    } catch (java.sql.SQLException e) {
      throw new AssertionError(e);
    } finally {
      System.setErr(original);
    }
    assertThat(captured.toString(StandardCharsets.UTF_8))
        .contains("WARN")
        .contains("transaction-pooling proxy")
        .contains("needs no session of its own");
  }

  private static boolean succeeded(TaskQ taskq, long id) {
    return taskq.jobs().find(id).map(j -> j.status() == JobStatus.SUCCEEDED).orElse(false);
  }
}
