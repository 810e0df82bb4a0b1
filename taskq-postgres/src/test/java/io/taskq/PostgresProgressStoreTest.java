package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.taskq.postgres.internal.Handles;
import io.taskq.postgres.internal.maintenance.SweepCatalog;
import io.taskq.postgres.internal.migrate.Migrations;
import io.taskq.postgres.testing.Db;
import io.taskq.progress.PostgresProgressStore;
import io.taskq.progress.Progress;
import io.taskq.progress.ProgressStore;
import io.taskq.progress.ProgressSubscription;
import io.taskq.redis.RedisConnector;
import io.taskq.redis.RedisProgressStore;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Progress without Redis (M5, D14): handlers report through their {@link JobContext}, the latest
 * report is kept in PostgreSQL under the attempt's lease (D9), clients read it and follow it by
 * polling, another schema never sees it (M6), and the Redis store falls back to it when Redis is
 * unreachable.
 */
@TaskQTest(poolSize = 12)
@Tag("M5")
class PostgresProgressStoreTest {
  private final List<TaskQ> workers = new ArrayList<>();
  private final CountDownLatch finish = new CountDownLatch(1);
  private TestDb db;
  private Db rows;

  @BeforeAll
  static void migrate(TestServices services) {
    TestDb.of(services).migrate();
  }

  @BeforeEach
  void clean(TestServices services) throws SQLException {
    db = TestDb.of(services);
    rows = new Db(services.dataSource());
    db.truncate();
    db.execute(db.sql("TRUNCATE {schema}.job_progress"));
  }

  @AfterEach
  void close() {
    finish.countDown();
    workers.forEach(TaskQ::close);
    workers.clear();
  }

  /** A handler that reports half-way, waits for the test, then reports done. */
  private Actor<String> reporting() {
    return Actor.builder(
            "reporting",
            PayloadCodec.rawJson(),
            (String json, JobContext ctx) -> {
              ctx.reportProgress(0.5, "half way", "{\"rows\": 50}");
              if (!finish.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test never let the job finish");
              }
              ctx.reportProgress(1.0, "done");
              return null;
            })
        .build();
  }

  private TaskQ started(TaskQ.Builder builder) throws SQLException {
    TaskQ taskq = builder.build();
    workers.add(taskq);
    taskq.register(reporting());
    taskq.start();
    return taskq;
  }

  private TaskQ.Builder builder() {
    return TaskQ.builder(db.dataSource)
        .config(db.config().pollInterval(Duration.ofMillis(50)).build())
        .migrate(false)
        .maintenance(false);
  }

  private long enqueue(TaskQ taskq) {
    return taskq.jobs().enqueue(JobRequest.of("reporting", "{}"));
  }

  private static Optional<Progress> awaitProgress(
      io.taskq.progress.ProgressStore store, long id, String message) {
    await()
        .atMost(Duration.ofSeconds(15))
        .pollInterval(Duration.ofMillis(50))
        .until(() -> store.latest(id).map(Progress::message).orElse("").equals(message));
    return store.latest(id);
  }

  @Test
  void aHandlersReport_isReadableByJobId_thenReplacedByTheNext() throws Exception {
    TaskQ taskq = started(builder());
    long id = enqueue(taskq);

    Progress half = awaitProgress(taskq.progress(), id, "half way").orElseThrow();
    assertThat(half.jobId()).isEqualTo(id);
    assertThat(half.fraction()).isEqualTo(0.5);
    assertThat(half.detail()).hasValue("{\"rows\": 50}");
    finish.countDown();

    Progress done = awaitProgress(taskq.progress(), id, "done").orElseThrow();
    assertThat(done.fraction()).isEqualTo(1.0);
    assertThat(done.detail()).isEmpty();
    assertThat(done.reportedAt()).isAfterOrEqualTo(half.reportedAt());
    assertThat(rows.queryLong(db.sql("SELECT count(*) FROM {schema}.job_progress"))).isEqualTo(1);
    assertThat(taskq.progress().latest(id + 1000)).isEmpty();
  }

  @Test
  void writesAreFenced_onTheLeaseAndOnRunning() throws Exception {
    TaskQ taskq = started(builder());
    long id = enqueue(taskq);
    awaitProgress(taskq.progress(), id, "half way");
    long token = rows.queryLong(db.sql("SELECT lease_token FROM {schema}.jobs WHERE id = ?"), id);
    PostgresProgressStore store =
        Handles.progress().create(db.dataSource, db.schema, Duration.ofSeconds(1));

    assertThat(store.reportFenced(id, token + 1, 0.9, "stale attempt", null))
        .as("another lease token")
        .isFalse();
    assertThat(store.latest(id).map(Progress::message)).hasValue("half way");
    assertThat(store.reportFenced(id, token, 0.6, "same attempt", null)).isTrue();
    assertThat(store.latest(id).map(Progress::message)).hasValue("same attempt");

    long pending =
        taskq.jobs().enqueue(JobRequest.builder("nobody-runs-this").payloadJson("{}").build());
    store.report(pending, 0.1, "not running");
    assertThat(store.latest(pending)).as("a job that is not running").isEmpty();
    assertThat(store.droppedReports()).isZero();
  }

  @Test
  void subscriptionsPoll_oneJobOrTheWholeSchema() throws Exception {
    TaskQ taskq = started(builder());
    PostgresProgressStore store =
        Handles.progress().create(db.dataSource, db.schema, Duration.ofMillis(50));
    List<Progress> one = new CopyOnWriteArrayList<>();
    List<Progress> all = new CopyOnWriteArrayList<>();
    try (store) {
      long first = enqueue(taskq);
      ProgressSubscription forFirst = store.subscribe(first, one::add);
      ProgressSubscription everything = store.subscribeAll(all::add);
      long second = enqueue(taskq);

      await()
          .atMost(Duration.ofSeconds(15))
          .until(() -> all.stream().map(Progress::jobId).distinct().count() == 2);
      assertThat(one).isNotEmpty().allMatch(p -> p.jobId() == first);
      assertThat(all).extracting(Progress::jobId).contains(first, second);
      everything.close();
      int seen = all.size();
      finish.countDown();

      await()
          .atMost(Duration.ofSeconds(15))
          .until(() -> one.stream().anyMatch(p -> p.message().equals("done")));
      forFirst.close();
      assertThat(all).as("closed: no more reports").hasSize(seen);
    }
  }

  @Test
  void badReports_areRefusedNamingTheProblem() {
    PostgresProgressStore store =
        Handles.progress().create(db.dataSource, db.schema, Duration.ofSeconds(1));

    assertThatThrownBy(() -> store.report(1, 1.5, "too far"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("0.0..1.0");
    assertThatThrownBy(() -> store.report(1, 0.5, "nul\u0000"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("NUL");
    assertThatThrownBy(() -> store.report(1, 0.5, "ok", "{not json"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not valid JSON");
    assertThatThrownBy(() -> store.latest(0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  @Tag("M6")
  void anotherSchema_neverSeesTheProgress(TestServices services) throws Exception {
    SchemaName other = SchemaName.of(services.schema() + "_p");
    Migrations.apply(db.dataSource, other);
    try {
      TaskQ taskq = started(builder());
      long id = enqueue(taskq);
      awaitProgress(taskq.progress(), id, "half way");

      assertThat(Handles.progress().create(db.dataSource, other, Duration.ofSeconds(1)).latest(id))
          .isEmpty();
    } finally {
      rows.execute("DROP SCHEMA " + other.quoted() + " CASCADE");
    }
  }

  @Test
  @Tag("D14")
  void redisUnreachable_progressFallsBackToPostgres(TestServices services) throws Exception {
    AtomicReference<@Nullable ProgressStore> fallback = new AtomicReference<>();
    try (RedisConnector unreachable =
        RedisConnector.create(
            "redis://127.0.0.1:1", Duration.ofMillis(300), SchemaName.of(services.schema()))) {
      TaskQ taskq =
          started(
              builder()
                  .progress(
                      postgres -> {
                        fallback.set(postgres);
                        return RedisProgressStore.builder(unreachable).fallback(postgres).build();
                      }));
      ProgressStore postgres = Objects.requireNonNull(fallback.get());
      assertThat(postgres).isInstanceOf(PostgresProgressStore.class);
      try (RedisProgressStore redis = (RedisProgressStore) taskq.progress()) {
        long id = enqueue(taskq);

        assertThat(awaitProgress(redis, id, "half way")).isPresent();
        assertThat(postgres.latest(id).map(Progress::message)).hasValue("half way");
        assertThat(redis.droppedReports()).isZero();
      }
    }
  }

  @Test
  @Tag("S11")
  void pruningAJob_deletesItsProgress() throws Exception {
    TaskQ taskq = started(builder());
    long id = enqueue(taskq);
    awaitProgress(taskq.progress(), id, "half way");
    finish.countDown();
    await().atMost(Duration.ofSeconds(15)).until(() -> db.status(id).equals("succeeded"));

    try (Connection tx = db.dataSource.getConnection()) {
      tx.setAutoCommit(false);
      assertThat(SweepCatalog.PRUNE.batch(db.schema, Duration.ofMillis(1)).run(tx, 100))
          .isEqualTo(1);
      tx.commit();
    }
    assertThat(taskq.progress().latest(id)).isEmpty();
  }
}
