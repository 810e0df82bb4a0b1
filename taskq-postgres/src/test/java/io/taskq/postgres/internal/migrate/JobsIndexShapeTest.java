package io.taskq.postgres.internal.migrate;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.SchemaName;
import io.taskq.postgres.testing.Db;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * X2 (V013): what a job's transitions cost in indexes. A status change is never a HOT update
 * (status is in the partial indexes' predicates), so every index of {@code jobs} whose predicate
 * the new row version meets takes a new entry on every transition: only the primary key may cover
 * every row, each other index is partial, and the running and finished states have one index each.
 * The failed states' indexes (V013's search index, V014's count index by actor) take an entry only
 * when a job fails, crashes or is cancelled. The fill factor leaves room on each page for the
 * transitions' new row versions.
 */
@TaskQTest
@Tag("X2")
class JobsIndexShapeTest {
  private static Db db;
  private static SchemaName schema;

  @BeforeAll
  static void migrate(TestServices services) {
    schema = SchemaName.of(services.schema());
    Migrations.apply(services.dataSource(), schema);
    db = new Db(services.dataSource());
  }

  private static String jobs() {
    return schema.quoted() + ".jobs";
  }

  @Test
  void everyIndexOfJobsButThePrimaryKey_isPartial() {
    assertThat(
            db.queryColumn(
                "SELECT c.relname::text FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid"
                    + " WHERE i.indrelid = ?::regclass AND i.indpred IS NULL ORDER BY 1",
                jobs()))
        .containsExactly("jobs_pkey");
  }

  @Test
  void aRunningAndAFinishedJob_eachMeetOneStateIndex() {
    assertThat(
            db.queryColumn(
                "SELECT c.relname::text FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid"
                    + " WHERE i.indrelid = ?::regclass ORDER BY 1",
                jobs()))
        .containsExactly(
            "jobs_batch_idx",
            "jobs_claim_queue_idx",
            "jobs_deadline_idx",
            "jobs_failures_actor_idx",
            "jobs_pkey",
            "jobs_result_expiry_idx",
            "jobs_running_idx",
            "jobs_scheduled_idx",
            "jobs_search_error_idx",
            "jobs_search_failures_idx",
            "jobs_terminal_idx",
            "jobs_unique_idx");
  }

  @Test
  void newPagesLeaveRoomForTheTransitions() {
    assertThat(
            db.queryColumn(
                "SELECT unnest(reloptions) FROM pg_class WHERE oid = ?::regclass ORDER BY 1",
                jobs()))
        .containsExactly("fillfactor=40");
  }
}
