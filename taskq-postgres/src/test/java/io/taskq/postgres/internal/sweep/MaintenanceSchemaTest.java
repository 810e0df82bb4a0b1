package io.taskq.postgres.internal.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.SQLException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The shape of migration V002: what the sweeps and the later issues rely on. */
@TaskQTest
class MaintenanceSchemaTest {
  private SweepFixture f;

  @BeforeEach
  void freshSchema(TestServices services) {
    f = SweepFixture.fresh(services.dataSource(), services.schema());
  }

  private String sqlStateOf(String sql) {
    try {
      f.db.execute(sql);
      return "no error";
    } catch (IllegalStateException e) {
      return e.getCause() instanceof SQLException s ? s.getSQLState() : e.toString();
    }
  }

  @Test
  void createsTheMaintenanceTables() {
    assertThat(f.db.tables(f.schema.value()))
        .contains("reservation_slots", "rate_limit_buckets", "batches", "maintenance_state");
  }

  @Test
  @Tag("E2")
  void seedsBothPruneWatermarksAtZero() {
    assertThat(
            f.db.queryColumn(
                "SELECT key || '=' || value || '/' || coalesce(writer_xid::text, '-') FROM "
                    + f.t("maintenance_state")
                    + " ORDER BY key"))
        .containsExactly("event_prune_watermark=0/-", "reclaim_event_prune_watermark=0/0");
  }

  @Test
  @Tag("L7")
  void aReservationSlotIsKeyedExactlyWhenItsScopeIsAKey_andHeldWithAllThreeHolderColumns() {
    String insert =
        "INSERT INTO "
            + f.t("reservation_slots")
            + " (scope_kind, scope_name, slot, keyed, job_id, lease_token, lease_expires_at)"
            + " VALUES ";
    assertThat(sqlStateOf(insert + "('key', 'k', 0, false, NULL, NULL, NULL)")).isEqualTo("23514");
    assertThat(sqlStateOf(insert + "('queue', 'q', 0, true, NULL, NULL, NULL)")).isEqualTo("23514");
    assertThat(sqlStateOf(insert + "('queue', 'q', 0, false, 1, NULL, now())")).isEqualTo("23514");
    assertThat(sqlStateOf(insert + "('bucket', 'q', 0, false, NULL, NULL, NULL)"))
        .isEqualTo("23514");
    assertThat(sqlStateOf(insert + "('key', 'k', 0, true, 1, 1, now())")).isEqualTo("no error");
    assertThat(sqlStateOf(insert + "('key', 'k', 0, true, NULL, NULL, NULL)"))
        .as("one row per slot of a scope")
        .isEqualTo("23505");
  }

  @Test
  @Tag("L9")
  void aBatchIsActiveOrCompleted_completedExactlyWhenItHasACompletionTime() {
    String insert = "INSERT INTO " + f.t("batches") + " (total, status, completed_at) VALUES ";
    assertThat(sqlStateOf(insert + "(1, 'done', now())")).isEqualTo("23514");
    assertThat(sqlStateOf(insert + "(1, 'completed', NULL)")).isEqualTo("23514");
    assertThat(sqlStateOf(insert + "(-1, 'active', NULL)")).isEqualTo("23514");
    assertThat(sqlStateOf(insert + "(1, 'active', NULL)")).isEqualTo("no error");
    assertThat(
            sqlStateOf(
                "INSERT INTO " + f.t("batches") + " (total, hook_actor) VALUES (1, 'no_queue')"))
        .isEqualTo("23514");
  }

  @Test
  @Tag("L9")
  void jobsBatchIdHasNoForeignKey_becausePruneMovesMembersToTheArchive() {
    assertThat(
            f.db.queryLong(
                "SELECT count(*) FROM pg_constraint WHERE contype = 'f' AND conrelid IN (?::regclass,"
                    + " ?::regclass)",
                f.t("jobs"),
                f.t("jobs_archive")))
        .isZero();
  }
}
