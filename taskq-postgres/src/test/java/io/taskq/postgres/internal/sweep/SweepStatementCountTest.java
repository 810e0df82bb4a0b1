package io.taskq.postgres.internal.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.postgres.internal.maintenance.SweepCatalog;
import io.taskq.postgres.testing.StatementCounter;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.time.Duration;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * B1: a batch runs a constant number of statements whatever its size, never one round trip per row.
 * Each sweep runs once over 1 eligible row and once over 100, on a connection that counts.
 */
@TaskQTest
@Tag("B1")
class SweepStatementCountTest {
  private static final String OLD = "now() - interval '400 days'";

  private final TestServices services;

  SweepStatementCountTest(TestServices services) {
    this.services = services;
  }

  /** Statements of one batch over {@code rows} eligible rows; asserts the batch took them all. */
  private int statementsFor(
      Function<SweepFixture, SweepBatch> sweepOf,
      BiConsumer<SweepFixture, Integer> seed,
      int rows,
      int rowsPerEligible)
      throws Exception {
    SweepFixture f = SweepFixture.fresh(services.dataSource(), services.schema());
    seed.accept(f, rows);
    SweepBatch sweep = sweepOf.apply(f);
    StatementCounter counter = new StatementCounter(f.ds);
    try (Connection tx = counter.getConnection()) {
      tx.setAutoCommit(false);
      assertThat(sweep.run(tx, 100)).isEqualTo(rows * rowsPerEligible);
      tx.rollback();
    }
    return counter.count();
  }

  private void assertConstant(
      Function<SweepFixture, SweepBatch> sweepOf,
      BiConsumer<SweepFixture, Integer> seed,
      int rowsPerEligible,
      int statements)
      throws Exception {
    assertThat(statementsFor(sweepOf, seed, 1, rowsPerEligible)).isEqualTo(statements);
    assertThat(statementsFor(sweepOf, seed, 100, rowsPerEligible)).isEqualTo(statements);
  }

  @Test
  @Tag("S4")
  void leakedReservationSlots_oneStatement() throws Exception {
    assertConstant(
        f -> SweepCatalog.SWEEP_LEAKED_RESERVATION_SLOTS.batch(f.schema),
        (f, n) ->
            f.db.update(
                "INSERT INTO "
                    + f.t("reservation_slots")
                    + " (scope_kind, scope_name, slot, keyed, job_id, lease_token,"
                    + " lease_expires_at) SELECT 'queue', 'q', g, false, 1, 1, "
                    + OLD
                    + " FROM generate_series(1, ?) g",
                n),
        1,
        1);
  }

  @Test
  @Tag("S5")
  void expiredResults_oneStatement() throws Exception {
    assertConstant(
        f -> SweepCatalog.SWEEP_EXPIRED_RESULTS.batch(f.schema),
        (f, n) -> f.insertJobs(n, "succeeded", "result, result_expires_at", "'1', " + OLD),
        1,
        1);
  }

  @Test
  @Tag("S6")
  void staleWorkers_twoStatements() throws Exception {
    assertConstant(
        f -> SweepCatalog.CLEANUP_STALE_WORKERS.batch(f.schema, Duration.ofMinutes(1)),
        (f, n) -> {
          f.db.update(
              "INSERT INTO "
                  + f.t("workers")
                  + " (id, hostname, pid, queues, concurrency, heartbeat_at)"
                  + " SELECT 'w' || g, 'h', g, '{q}', 1, "
                  + OLD
                  + " FROM generate_series(1, ?) g",
              n);
          f.db.update(
              "INSERT INTO "
                  + f.t("job_attempts")
                  + " (job_id, attempt, worker_id, outcome)"
                  + " SELECT g, 1, 'w' || g, 'succeeded' FROM generate_series(1, ?) g",
              n);
        },
        2,
        2);
  }

  @Test
  @Tag("S7")
  void staleBatches_oneStatement() throws Exception {
    assertConstant(
        f -> SweepCatalog.COMPLETE_STALE_BATCHES.batch(f.schema),
        (f, n) ->
            f.db.update(
                "WITH b AS (INSERT INTO "
                    + f.t("batches")
                    + " (total, hook_actor, hook_queue) SELECT 1, 'h', 'q'"
                    + " FROM generate_series(1, ?) RETURNING id)"
                    + " INSERT INTO "
                    + f.t("jobs")
                    + " ("
                    + SweepFixture.JOB_COLUMNS
                    + ", batch_id) SELECT "
                    + String.format(SweepFixture.JOB_VALUES, "succeeded")
                    + ", b.id FROM b",
                n),
        1,
        1);
  }

  @Test
  @Tag("S8")
  void expiredEvents_oneStatement() throws Exception {
    assertConstant(
        f -> SweepCatalog.SWEEP_EXPIRED_EVENTS.batch(f.schema, Duration.ofDays(1)),
        (f, n) ->
            f.db.update(
                "INSERT INTO "
                    + f.t("job_events")
                    + " (job_id, kind, actor, queue, attempt, occurred_at)"
                    + " SELECT g, 'succeeded', 'a', 'q', 1, "
                    + OLD
                    + " FROM generate_series(1, ?) g",
                n),
        1,
        1);
  }

  @Test
  @Tag("S9")
  void idleKeyedRows_oneStatementForBothTables() throws Exception {
    assertConstant(
        f -> SweepCatalog.SWEEP_IDLE_KEYED_ROWS.batch(f.schema, Duration.ofDays(1)),
        (f, n) -> {
          f.db.update(
              "INSERT INTO "
                  + f.t("reservation_slots")
                  + " (scope_kind, scope_name, slot, keyed, last_used_at)"
                  + " SELECT 'key', 'k' || g, 0, true, "
                  + OLD
                  + " FROM generate_series(1, ?) g",
              n);
          f.db.update(
              "INSERT INTO "
                  + f.t("rate_limit_buckets")
                  + " (name, keyed, last_used_at) SELECT 'k' || g, true, "
                  + OLD
                  + " FROM generate_series(1, ?) g",
              n);
        },
        2,
        1);
  }

  @Test
  @Tag("S11")
  void prune_lockAndOneStatement() throws Exception {
    assertConstant(
        f -> SweepCatalog.PRUNE.batch(f.schema, Duration.ofDays(1)),
        (f, n) -> f.insertJobs(n, "succeeded", "finished_at", OLD),
        1,
        2);
  }

  @Test
  @Tag("S11")
  void archiveExpiry_lockAndOneStatement() throws Exception {
    assertConstant(
        f -> SweepCatalog.ARCHIVE_EXPIRY.batch(f.schema, Duration.ofDays(1)),
        (f, n) ->
            f.db.update(
                "INSERT INTO "
                    + f.t("jobs_archive")
                    + " (id, "
                    + SweepFixture.JOB_COLUMNS
                    + ", archived_at) SELECT g, "
                    + String.format(SweepFixture.JOB_VALUES, "succeeded")
                    + ", "
                    + OLD
                    + " FROM generate_series(1, ?) g",
                n),
        1,
        2);
  }
}
