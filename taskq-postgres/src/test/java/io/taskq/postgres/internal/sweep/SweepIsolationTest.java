package io.taskq.postgres.internal.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.core.internal.AdvisoryLockName;
import io.taskq.postgres.internal.maintenance.SweepCatalog;
import io.taskq.postgres.testing.Db;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Two TaskQ schemas in one database: one schema's sweeps never touch the other's rows (M6). */
@TaskQTest
@Tag("M1")
@Tag("M6")
class SweepIsolationTest {
  private static final List<String> TABLES =
      List.of(
          "reservation_slots",
          "jobs",
          "workers",
          "job_attempts",
          "batches",
          "job_events",
          "rate_limit_buckets",
          "jobs_archive");

  private SweepFixture a;
  private SweepFixture b;

  @BeforeEach
  void twoSchemas(TestServices services) {
    a = SweepFixture.fresh(services.dataSource(), services.schema());
    b = SweepFixture.fresh(services.dataSource(), Db.uniqueName(services.schema() + "_b"));
  }

  @AfterEach
  void dropSecondSchema() {
    b.db.dropSchema(b.schema.value());
  }

  /** A row every sweep of this package would take. */
  private static void eligibleRows(SweepFixture f) {
    String old = "now() - interval '400 days'";
    f.db.execute(
        "INSERT INTO "
            + f.t("reservation_slots")
            + " (scope_kind, scope_name, slot, keyed, job_id, lease_token, lease_expires_at,"
            + " last_used_at) VALUES ('key', 'k', 0, true, 1, 1, "
            + old
            + ", "
            + old
            + "), ('queue', 'q', 0, false, 1, 1, "
            + old
            + ", now())");
    f.insertJobs(
        1, "succeeded", "result, result_expires_at, finished_at", "'1', " + old + ", now()");
    f.insertJobs(1, "failed", "finished_at", old);
    f.db.execute(
        "INSERT INTO "
            + f.t("workers")
            + " (id, hostname, pid, queues, concurrency, heartbeat_at) VALUES"
            + " ('w', 'h', 1, '{q}', 1, "
            + old
            + ")");
    f.db.execute(
        "INSERT INTO "
            + f.t("job_attempts")
            + " (job_id, attempt, worker_id, outcome)"
            + " VALUES (1, 1, 'w', 'succeeded')");
    long batch =
        f.db.queryLong(
            "INSERT INTO "
                + f.t("batches")
                + " (total, hook_actor, hook_queue) VALUES (1, 'hook', 'q') RETURNING id");
    f.insertJobs(1, "succeeded", "batch_id", Long.toString(batch));
    f.db.execute(
        "INSERT INTO "
            + f.t("job_events")
            + " (job_id, kind, actor, queue, attempt, occurred_at) VALUES"
            + " (1, 'succeeded', 'a', 'q', 1, "
            + old
            + "), (1, 'reclaimed', 'a', 'q', 1, now() - interval '4000 days')");
    f.db.execute(
        "INSERT INTO "
            + f.t("rate_limit_buckets")
            + " (name, keyed, last_used_at) VALUES ('k', true, "
            + old
            + ")");
    f.db.execute(
        "INSERT INTO "
            + f.t("jobs_archive")
            + " (id, "
            + SweepFixture.JOB_COLUMNS
            + ", archived_at) VALUES (9999, "
            + String.format(SweepFixture.JOB_VALUES, "succeeded")
            + ", "
            + old
            + ")");
  }

  private static List<SweepBatch> everySweep(SweepFixture f) {
    Duration day = Duration.ofDays(1);
    return List.of(
        SweepCatalog.SWEEP_LEAKED_RESERVATION_SLOTS.batch(f.schema),
        SweepCatalog.SWEEP_EXPIRED_RESULTS.batch(f.schema),
        SweepCatalog.CLEANUP_STALE_WORKERS.batch(f.schema, day),
        SweepCatalog.COMPLETE_STALE_BATCHES.batch(f.schema),
        SweepCatalog.SWEEP_EXPIRED_EVENTS.batch(f.schema, day),
        SweepCatalog.SWEEP_IDLE_KEYED_ROWS.batch(f.schema, day),
        SweepCatalog.PRUNE.batch(f.schema, day),
        SweepCatalog.ARCHIVE_EXPIRY.batch(f.schema, day));
  }

  private static String fingerprint(SweepFixture f) {
    StringBuilder out = new StringBuilder();
    for (String table : TABLES) {
      out.append(table)
          .append('=')
          .append(
              f.db.queryColumn(
                  "SELECT md5(coalesce(string_agg(t::text, ',' ORDER BY t::text), '')) FROM "
                      + f.t(table)
                      + " t"))
          .append(' ');
    }
    return out.toString();
  }

  @Test
  void everySweepOfOneSchemaLeavesTheOtherSchemasRowsAlone() {
    eligibleRows(a);
    eligibleRows(b);
    String before = fingerprint(b);
    String aBefore = fingerprint(a);

    for (SweepBatch sweep : everySweep(a)) {
      assertThat(a.drain(sweep, 100).get(0))
          .as("%s found work in its own schema", sweep.sweepName())
          .isPositive();
    }

    assertThat(fingerprint(a)).isNotEqualTo(aBefore);
    assertThat(fingerprint(b)).isEqualTo(before);
  }

  @Test
  void oneSchemasPruneLockDoesNotStopTheOtherSchemasPrune() throws Exception {
    a.insertJobs(2, "succeeded", "finished_at", "now() - interval '2 days'");
    b.insertJobs(2, "succeeded", "finished_at", "now() - interval '2 days'");
    try (Connection other = a.ds.getConnection();
        PreparedStatement lock = other.prepareStatement("SELECT pg_advisory_lock(?)")) {
      lock.setLong(1, AdvisoryLockName.of(AdvisoryLockName.Purpose.PRUNE, a.schema).key());
      lock.execute();

      assertThat(a.runBatch(SweepCatalog.PRUNE.batch(a.schema, Duration.ofDays(1)), 100)).isZero();
      assertThat(b.runBatch(SweepCatalog.PRUNE.batch(b.schema, Duration.ofDays(1)), 100))
          .isEqualTo(2);

      try (PreparedStatement unlock = other.prepareStatement("SELECT pg_advisory_unlock(?)")) {
        unlock.setLong(1, AdvisoryLockName.of(AdvisoryLockName.Purpose.PRUNE, a.schema).key());
        unlock.execute();
      }
    }
  }
}
