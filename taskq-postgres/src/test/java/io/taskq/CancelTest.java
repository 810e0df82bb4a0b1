package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.bulk.CancelResult;
import io.taskq.postgres.internal.migrate.Migrations;
import io.taskq.postgres.testing.Db;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@TaskQTest
@Tag("L8")
@Tag("L1")
class CancelTest {
  private static SchemaName schema;
  private static JobsClient client;
  private static Db db;

  @BeforeAll
  static void migrate(TestServices services) {
    schema = SchemaName.of(services.schema());
    Migrations.apply(services.dataSource(), schema);
    client = JobsClient.create(services.dataSource(), schema);
    db = new Db(services.dataSource());
  }

  @Test
  @Tag("B6")
  void pendingJob_isCancelledAtOnceWithItsEventInTheSameTransaction() {
    long id = client.enqueue(JobRequest.builder("mail").queue("q").build());

    assertThat(client.cancel(id)).isEqualTo(CancelResult.CANCELLED);

    JobInfo job = client.find(id).orElseThrow();
    assertThat(job.status()).isEqualTo(JobStatus.CANCELLED);
    assertThat(job.finishedAt()).isNotNull();
    assertThat(events(id)).containsExactly("cancelled:mail:q:0");
    assertThat(eventWrittenByTheTransitionsTransaction(id)).isTrue();
    assertThat(
            db.queryLong(
                "SELECT count(*) FROM "
                    + schema.quoted()
                    + ".job_events WHERE job_id = ?"
                    + " AND occurred_at = (SELECT finished_at FROM "
                    + schema.quoted()
                    + ".jobs WHERE id = ?)",
                id,
                id))
        .isOne();
  }

  @Test
  @Tag("B6")
  void scheduledJob_isCancelledAtOnceWithItsEvent() {
    long id = client.enqueue(JobRequest.builder("later").delay(Duration.ofHours(2)).build());

    assertThat(client.cancel(id)).isEqualTo(CancelResult.CANCELLED);

    assertThat(client.find(id).orElseThrow().status()).isEqualTo(JobStatus.CANCELLED);
    assertThat(events(id)).containsExactly("cancelled:later:default:0");
    assertThat(eventWrittenByTheTransitionsTransaction(id)).isTrue();
  }

  @Test
  @Tag("A3")
  void cancelNamingTheOperator_notesItOnTheCancelledEvent_asABulkCancelDoes() {
    long named = client.enqueue(JobRequest.builder("mail").queue("q").build());
    long anonymous = client.enqueue(JobRequest.builder("mail").queue("q").build());

    assertThat(client.cancel(named, " ops-alice ")).isEqualTo(CancelResult.CANCELLED);
    assertThat(client.cancel(anonymous)).isEqualTo(CancelResult.CANCELLED);

    assertThat(notes(named)).containsExactly("cancelled by ops-alice");
    assertThat(notes(anonymous)).as("no operator, no note").containsExactly((Object) null);
  }

  private static List<Object> notes(long id) {
    return db.queryColumn(
        "SELECT note FROM " + schema.quoted() + ".job_events WHERE job_id = ? ORDER BY event_id",
        id);
  }

  @Test
  @Tag("B6")
  void runningJob_getsACancelRequestItsHandlerCanObserve_withItsEventInTheSameTransaction() {
    long id = client.enqueue(JobRequest.of("slow", "{}"));
    markRunning(id);

    assertThat(client.cancel(id)).isEqualTo(CancelResult.CANCEL_REQUESTED);
    JobInfo requested = client.find(id).orElseThrow();
    assertThat(client.cancel(id)).isEqualTo(CancelResult.CANCEL_REQUESTED);

    JobInfo again = client.find(id).orElseThrow();
    assertThat(requested.status()).isEqualTo(JobStatus.RUNNING);
    assertThat(requested.cancelRequestedAt()).isNotNull();
    assertThat(again.cancelRequestedAt())
        .as("a second request keeps the first time")
        .isEqualTo(requested.cancelRequestedAt());
    assertThat(again.finishedAt()).isNull();
    assertThat(events(id))
        .as("the request is recorded once; the worker writes 'cancelled' when the handler stops")
        .containsExactly("cancel_requested:slow:default:1");
    assertThat(eventWrittenByTheTransitionsTransaction(id)).isTrue();
    assertThat(
            db.queryLong(
                "SELECT count(*) FROM "
                    + schema.quoted()
                    + ".job_events WHERE job_id = ?"
                    + " AND occurred_at = (SELECT cancel_requested_at FROM "
                    + schema.quoted()
                    + ".jobs WHERE id = ?)",
                id,
                id))
        .isOne();
  }

  @Test
  @Tag("A3")
  void cancelOfARunningJobNamingTheOperator_notesItOnTheRequest_andTheFirstRequestKeepsIt() {
    long named = client.enqueue(JobRequest.of("slow", "{}"));
    long anonymous = client.enqueue(JobRequest.of("slow", "{}"));
    markRunning(named);
    markRunning(anonymous);

    assertThat(client.cancel(named, " ops-alice ")).isEqualTo(CancelResult.CANCEL_REQUESTED);
    assertThat(client.cancel(named, "ops-bob")).isEqualTo(CancelResult.CANCEL_REQUESTED);
    assertThat(client.cancel(anonymous)).isEqualTo(CancelResult.CANCEL_REQUESTED);

    assertThat(notes(named))
        .as("who asked first, as a second pause keeps the first's author")
        .containsExactly("cancel requested by ops-alice");
    assertThat(notes(anonymous)).as("no operator, no note").containsExactly((Object) null);
  }

  @Test
  void finishedJob_isReportedAsAlreadyFinishedAndUnchanged() {
    long id = client.enqueue(JobRequest.of("a", "{}"));
    client.cancel(id);
    JobInfo cancelled = client.find(id).orElseThrow();

    assertThat(client.cancel(id)).isEqualTo(CancelResult.ALREADY_FINISHED);

    assertThat(client.find(id).orElseThrow()).isEqualTo(cancelled);
    assertThat(events(id)).hasSize(1);
  }

  @Test
  void unknownId_isReportedAsNotFound() {
    assertThat(client.cancel(987_654_321L)).isEqualTo(CancelResult.NOT_FOUND);
  }

  @Test
  void archivedJob_isFoundAndReportedAsFinished() {
    long id = client.enqueue(JobRequest.of("old", "{\"x\": 1}"));
    client.cancel(id);
    db.update(
        "WITH moved AS (DELETE FROM "
            + schema.quoted()
            + ".jobs WHERE id = ? RETURNING *) INSERT INTO "
            + schema.quoted()
            + ".jobs_archive SELECT * FROM moved",
        id);

    JobInfo archived = client.find(id).orElseThrow();

    assertThat(archived.archived()).isTrue();
    assertThat(archived.payloadJson()).isEqualTo("{\"x\": 1}");
    assertThat(client.cancel(id)).isEqualTo(CancelResult.ALREADY_FINISHED);
  }

  private static void markRunning(long id) {
    db.update(
        "UPDATE "
            + schema.quoted()
            + ".jobs SET status = 'running', attempt = 1, locked_by = 'test-worker',"
            + " lock_expires_at = clock_timestamp() + interval '1 minute',"
            + " lease_token = nextval('"
            + schema.quoted().replace("'", "''")
            + ".lease_token_seq'), started_at = clock_timestamp() WHERE id = ?",
        id);
  }

  private static List<Object> events(long id) {
    return db.queryColumn(
        "SELECT kind || ':' || actor || ':' || queue || ':' || attempt FROM "
            + schema.quoted()
            + ".job_events WHERE job_id = ? ORDER BY event_id",
        id);
  }

  /** B6: the event's writer transaction is the one that last wrote the job row. */
  private static boolean eventWrittenByTheTransitionsTransaction(long id) {
    return db.queryLong(
            "SELECT count(*) FROM "
                + schema.quoted()
                + ".job_events e JOIN "
                + schema.quoted()
                + ".jobs j ON j.id = e.job_id WHERE e.job_id = ?"
                + " AND (e.writer_xid::text::bigint % 4294967296) = j.xmin::text::bigint",
            id)
        == 1;
  }
}
