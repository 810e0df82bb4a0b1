package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.taskq.postgres.internal.TestHooks;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Embedding (L11): TaskQ on a pool it opens itself from the settings, on the application's
 * executor, and what happens when that executor refuses work.
 */
@TaskQTest
@Tag("L11")
class OwnedResourcesTest {
  @BeforeAll
  static void migrate(TestServices services) {
    TestDb.of(services).migrate();
  }

  @BeforeEach
  void clean(TestServices services) throws SQLException {
    TestDb.of(services).truncate();
  }

  @Test
  void taskqWithoutADataSource_opensItsOwnPoolAndDirectListener(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    TaskQConfig config = db.config().databaseUrl(services.jdbcUrl()).databasePoolSize(3).build();
    try (TaskQ taskq = TaskQ.builder().config(config).build()) {
      taskq.register(Actor.rawJson("own", (json, ctx) -> "1"));
      taskq.start();
      long id = taskq.jobs().enqueue(JobRequest.of("own", "{}"));
      await().atMost(Duration.ofSeconds(10)).until(() -> db.status(id).equals("succeeded"));
      assertThat(TestHooks.of(taskq).worker().listenerConnects()).isPositive();
      assertThat(connections(db, "LISTEN %")).isEqualTo(1);
      assertThat(connections(db, "%")).isGreaterThan(1);
    }
    // Backends leave pg_stat_activity a moment after their client closed them.
    await().atMost(Duration.ofSeconds(10)).until(() -> connections(db, "%") == 0);
  }

  /** Connections of this deployment's own pool and listener whose last query matches. */
  private static long connections(TestDb db, String queryLike) throws SQLException {
    return db.queryLong(
        "SELECT count(*) FROM pg_stat_activity WHERE application_name = ? AND query LIKE ?",
        "taskq:" + db.schema.value(),
        queryLike);
  }

  @Test
  void noDataSourceAndNoUrl_isRefusedAtBuild() {
    assertThatThrownBy(() -> TaskQ.builder().config(TaskQConfig.defaults()).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("TASKQ_DATABASE_URL");
  }

  @Test
  void handlersRunOnTheApplicationsExecutor(TestServices services) throws Exception {
    TestDb db = TestDb.of(services);
    ExecutorService app = Executors.newFixedThreadPool(2, r -> new Thread(r, "app-pool"));
    try (TaskQ taskq =
        TaskQ.builder(db.dataSource)
            .config(db.config().build())
            .migrate(false)
            .executor(app)
            .build()) {
      taskq.register(
          Actor.rawJson("where", (json, ctx) -> "\"" + Thread.currentThread().getName() + "\""));
      taskq.start();
      long id = taskq.jobs().enqueue(JobRequest.of("where", "{}"));
      await().atMost(Duration.ofSeconds(10)).until(() -> db.status(id).equals("succeeded"));
      assertThat(String.valueOf(db.job(id).get("result"))).isEqualTo("\"app-pool\"");
    } finally {
      app.shutdown();
    }
    assertThat(app.isShutdown()).isTrue();
  }

  @Test
  void jobsTheExecutorRefuses_areHandedBackWithoutUsingAnAttempt(TestServices services)
      throws Exception {
    TestDb db = TestDb.of(services);
    AtomicInteger refusals = new AtomicInteger(3);
    ExecutorService app = Executors.newSingleThreadExecutor();
    try (TaskQ taskq =
        TaskQ.builder(db.dataSource)
            .config(db.config().build())
            .migrate(false)
            .executor(
                task -> {
                  if (refusals.getAndDecrement() > 0) {
                    throw new RejectedExecutionException("saturated");
                  }
                  app.execute(task);
                })
            .build()) {
      taskq.register(Actor.rawJson("refused", (json, ctx) -> null));
      taskq.start();
      long id = db.enqueueOne("refused", RetryPolicy.defaults().withMaxAttempts(1));
      db.notifyWake();
      await().atMost(Duration.ofSeconds(20)).until(() -> db.status(id).equals("succeeded"));
      assertThat(db.job(id).get("attempt")).isEqualTo(1);
      assertThat(db.attempts(id))
          .extracting(a -> a.get("outcome"))
          .containsExactly("released", "released", "released", "succeeded");
    } finally {
      app.shutdown();
    }
  }
}
