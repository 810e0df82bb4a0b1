package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.bulk.CancelResult;
import io.taskq.core.internal.AdvisoryLockName;
import io.taskq.postgres.internal.migrate.Migrations;
import io.taskq.postgres.testing.Db;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@TaskQTest
@Tag("L6")
@Tag("M4")
class UniqueForTest {
  private static final Duration HOUR = Duration.ofHours(1);

  private static SchemaName schema;
  private static JobsClient client;
  private static Db db;
  private static ExecutorService threads;

  @BeforeAll
  static void migrate(TestServices services) {
    schema = SchemaName.of(services.schema());
    Migrations.apply(services.dataSource(), schema);
    client = JobsClient.create(services.dataSource(), schema);
    db = new Db(services.dataSource());
    threads = Executors.newFixedThreadPool(8);
  }

  @AfterAll
  static void stopThreads() {
    threads.shutdownNow();
  }

  @Test
  void duplicateInsideTheWindow_returnsTheExistingJob() {
    long first = client.enqueue(unique("report", "user-1"));

    assertThat(client.enqueue(unique("report", "user-1"))).isEqualTo(first);
    assertThat(client.enqueue(unique("report", "user-2"))).isNotEqualTo(first);
    assertThat(client.enqueue(unique("other_actor", "user-1"))).isNotEqualTo(first);
    assertThat(rowsWithKey("report", "user-1")).isOne();
  }

  @Test
  void afterTheWindow_aNewJobIsEnqueued() {
    long first = client.enqueue(unique("expire", "k"));
    db.update(
        "UPDATE "
            + schema.quoted()
            + ".jobs SET unique_until = clock_timestamp() - interval '1 second' WHERE id = ?",
        first);

    long second = client.enqueue(unique("expire", "k"));

    assertThat(second).isNotEqualTo(first);
    assertThat(client.find(second).orElseThrow().uniqueUntil())
        .isEqualTo(client.find(second).orElseThrow().createdAt().plus(HOUR));
  }

  @Test
  @Tag("L8")
  void cancelledTwin_doesNotCount() {
    long first = client.enqueue(unique("cancel_twin", "k"));
    assertThat(client.cancel(first)).isEqualTo(CancelResult.CANCELLED);

    assertThat(client.enqueue(unique("cancel_twin", "k"))).isNotEqualTo(first);
  }

  @Test
  void finishedTwinInsideTheWindow_stillCounts() {
    long first = client.enqueue(unique("done_twin", "k"));
    db.update(
        "UPDATE "
            + schema.quoted()
            + ".jobs SET status = 'succeeded', finished_at = now()"
            + " WHERE id = ?",
        first);

    assertThat(client.enqueue(unique("done_twin", "k"))).isEqualTo(first);
  }

  @Test
  void eightConcurrentEnqueuers_getOneJobAndTheSameId() throws Exception {
    CountDownLatch gate = new CountDownLatch(1);
    List<Future<Long>> results = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      results.add(
          threads.submit(
              () -> {
                gate.await();
                return client.enqueue(unique("race", "same-key"));
              }));
    }
    gate.countDown();
    List<Long> ids = new ArrayList<>();
    for (Future<Long> f : results) {
      ids.add(f.get(30, TimeUnit.SECONDS));
    }

    assertThat(ids).hasSize(8).containsOnly(ids.get(0));
    assertThat(rowsWithKey("race", "same-key")).isOne();
  }

  @Test
  void duplicatesInsideOneBatch_foldIntoOneJob() {
    List<Long> ids =
        client.enqueueAll(
            List.of(
                unique("batch", "a"),
                JobRequest.of("batch", "{}"),
                unique("batch", "b"),
                unique("batch", "a")));

    assertThat(ids.get(3)).isEqualTo(ids.get(0));
    assertThat(ids.subList(0, 3)).doesNotHaveDuplicates();
    assertThat(rowsWithKey("batch", "a")).isOne();
  }

  @Test
  void liveTwinsAmongNewJobsOfABatch_comeBackAtTheirOwnPositions() {
    long a = client.enqueue(unique("mixed", "a"));
    long c = client.enqueue(unique("mixed", "c"));

    List<Long> ids =
        client.enqueueAll(
            List.of(
                JobRequest.of("mixed", "1"),
                unique("mixed", "a"),
                JobRequest.of("mixed", "2"),
                unique("mixed", "b"),
                unique("mixed", "c"),
                JobRequest.of("mixed", "3")));

    assertThat(ids.get(1)).isEqualTo(a);
    assertThat(ids.get(4)).isEqualTo(c);
    List<Long> fresh = List.of(ids.get(0), ids.get(2), ids.get(3), ids.get(5));
    assertThat(fresh).isSorted().doesNotHaveDuplicates().allMatch(id -> id > c);
    assertThat(client.find(ids.get(2)).orElseThrow().payloadJson()).isEqualTo("2");
    assertThat(rowsWithKey("mixed", "a")).isOne();
    assertThat(rowsWithKey("mixed", "b")).isOne();
  }

  @Test
  void secondEnqueuer_waitsForTheFirstTransactionThenReturnsItsJob(TestServices services)
      throws Exception {
    try (Connection first = services.dataSource().getConnection()) {
      first.setAutoCommit(false);
      long id = client.enqueue(first, unique("held", "k"));
      CompletableFuture<Long> second =
          CompletableFuture.supplyAsync(() -> client.enqueue(unique("held", "k")), threads);
      awaitLockWaiter(services, "held");
      assertThat(second).isNotDone();

      first.commit();

      assertThat(second.get(30, TimeUnit.SECONDS)).isEqualTo(id);
    }
  }

  @Test
  void firstTransactionRolledBack_secondEnqueuerInsertsItsOwn(TestServices services)
      throws Exception {
    try (Connection first = services.dataSource().getConnection()) {
      first.setAutoCommit(false);
      long id = client.enqueue(first, unique("rolled", "k"));
      CompletableFuture<Long> second =
          CompletableFuture.supplyAsync(() -> client.enqueue(unique("rolled", "k")), threads);
      awaitLockWaiter(services, "rolled");

      first.rollback();

      long secondId = second.get(30, TimeUnit.SECONDS);
      assertThat(secondId).isNotEqualTo(id);
      assertThat(client.find(secondId)).isPresent();
      assertThat(client.find(id)).isEmpty();
    }
  }

  /** Waits (on the server's view of locks) until a session waits on the keyed lock of k. */
  private static void awaitLockWaiter(TestServices services, String actor) {
    long key = AdvisoryLockName.uniqueFor(schema, actor, "k").key();
    Db view = new Db(services.dataSource());
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (view.queryLong(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
                + " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
                + " AND classid = ?::bigint::oid AND objid = ?::bigint::oid AND objsubid = 1",
            key >>> 32,
            key & 0xffffffffL)
        == 0) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("no session ever waited on the keyed lock of " + actor);
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
    }
  }

  private static JobRequest unique(String actor, String key) {
    return JobRequest.builder(actor).uniqueFor(HOUR, key).build();
  }

  private static long rowsWithKey(String actor, String key) {
    return db.queryLong(
        "SELECT count(*) FROM " + schema.quoted() + ".jobs WHERE actor = ? AND unique_key = ?",
        actor,
        key);
  }
}
