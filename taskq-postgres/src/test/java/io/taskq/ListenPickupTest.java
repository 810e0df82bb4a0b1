package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.taskq.postgres.internal.TestHooks;
import io.taskq.postgres.internal.worker.WorkerProbe;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.SQLException;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Wake-ups (L4, D11, M2): with a 30 s poll interval, only the NOTIFY on the schema's wake channel
 * can explain a job enqueued from another connection being picked up within seconds. The listener
 * survives losing its connection.
 */
@TaskQTest
@Tag("L4")
@Tag("M2")
class ListenPickupTest {
  private static final Duration PICKUP = Duration.ofSeconds(5);

  @BeforeAll
  static void migrate(TestServices services) {
    TestDb.of(services).migrate();
  }

  @BeforeEach
  void clean(TestServices services) throws SQLException {
    TestDb.of(services).truncate();
  }

  private static TaskQConfig.Builder slowPolling(TestDb db) {
    return db.config().pollInterval(Duration.ofSeconds(30));
  }

  /** Waits until the worker listens and has made its start-up claim, so only a wake-up is left. */
  private static void awaitIdleListening(WorkerProbe worker) {
    await().atMost(Duration.ofSeconds(10)).until(() -> worker.listenerConnects() > 0);
  }

  @Test
  void jobEnqueuedFromAnotherConnection_isPickedUpByNotify(TestServices services) throws Exception {
    TestDb db = TestDb.of(services);
    try (TaskQ taskq = db.taskq(slowPolling(db))) {
      taskq.register(Actor.rawJson("ping", (json, ctx) -> null));
      taskq.start();
      awaitIdleListening(TestHooks.of(taskq).worker());
      // Another connection, another client: its enqueue sends the wake NOTIFY on commit.
      JobsClient client = JobsClient.create(db.dataSource, db.schema);
      for (int round = 0; round < 3; round++) {
        long id = client.enqueue(JobRequest.of("ping", "{\"round\": " + round + "}"));
        await().atMost(PICKUP).until(() -> db.status(id).equals("succeeded"));
      }
      assertThat(TestHooks.of(taskq).worker().wakeNotifications()).isGreaterThanOrEqualTo(3);
    }
  }

  @Test
  void listenerWhoseConnectionDies_reconnectsAndStillWakes(TestServices services) throws Exception {
    TestDb db = TestDb.of(services);
    try (TaskQ taskq = db.taskq(slowPolling(db))) {
      taskq.register(Actor.rawJson("ping", (json, ctx) -> null));
      taskq.start();
      WorkerProbe worker = TestHooks.of(taskq).worker();
      awaitIdleListening(worker);
      TestHooks.arm(worker.faults().listen(), 1);
      long killed =
          db.queryLong(
              "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                  + " WHERE query LIKE 'LISTEN %' AND query LIKE ?",
              "%" + worker.id() + "%");
      assertThat(killed).isEqualTo(1);
      await().atMost(Duration.ofSeconds(10)).until(() -> worker.listenerConnects() >= 2);
      assertThat(worker.faults().listen().fired()).isEqualTo(1);
      assertThat(worker.faults().listen().remaining()).isZero();

      long id = JobsClient.create(db.dataSource, db.schema).enqueue(JobRequest.of("ping", "{}"));
      await().atMost(PICKUP).until(() -> db.status(id).equals("succeeded"));
    }
  }
}
