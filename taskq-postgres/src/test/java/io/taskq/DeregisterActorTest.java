package io.taskq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskq.bulk.BulkProgress;
import io.taskq.bulk.BulkProgressListener;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Actor deregistration (S13, F4): refused up front while the actor has running jobs; forced, it
 * drains the actor's open jobs in committed batches and ends with one small transaction.
 */
@TaskQTest
@Tag("S13")
@Tag("F4")
class DeregisterActorTest {
  private static TestDb db;
  private static JobsClient client;

  @BeforeAll
  static void migrate(TestServices services) {
    db = TestDb.of(services).migrate();
    client = JobsClient.create(services.dataSource(), db.schema);
  }

  @BeforeEach
  void clean() throws SQLException {
    db.execute(db.sql("TRUNCATE {schema}.reservation_slots"));
    db.truncate();
    db.execute(
        db.sql(
            "INSERT INTO {schema}.actor_config (actor, queue) VALUES ('gone', 'gone_q'),"
                + " ('stays', 'shared'), ('other', 'shared')"));
  }

  private static void markRunning(long id) throws SQLException {
    db.execute(
        db.sql(
            "UPDATE {schema}.jobs SET status = 'running', locked_by = 'w', lease_token = 1,"
                + " lock_expires_at = now() + interval '1 minute', attempt = 1,"
                + " started_at = now() WHERE id = "
                + id));
  }

  private static void finish(long id) throws SQLException {
    db.execute(
        db.sql(
            "UPDATE {schema}.jobs SET status = 'succeeded', locked_by = NULL,"
                + " lock_expires_at = NULL, finished_at = now() WHERE id = "
                + id));
  }

  private static long count(String where, Object... args) throws SQLException {
    return db.count("jobs WHERE " + where, args);
  }

  @Test
  void forced_refusesWhileTheActorHasRunningJobs_andSucceedsOnceTheyFinish() throws Exception {
    List<Long> ids = client.enqueueAll(Collections.nCopies(250, JobRequest.of("gone", "{}")));
    client.enqueue(JobRequest.builder("gone").delay(Duration.ofHours(1)).build());
    client.enqueue(JobRequest.of("stays", "{}"));
    long running = ids.get(0);
    markRunning(running);

    assertThatThrownBy(() -> client.deregisterActor("gone", true))
        .isInstanceOfSatisfying(
            ActorBusyException.class,
            e -> {
              assertThat(e.actor()).isEqualTo("gone");
              assertThat(e.jobs()).isOne();
              assertThat(e).hasMessageContaining("1 running job");
            });
    assertThat(count("actor = 'gone' AND status IN ('pending', 'scheduled')")).isEqualTo(250);
    assertThat(db.count("actor_config WHERE actor = 'gone'")).isOne();

    finish(running);
    List<BulkProgress> progress = new ArrayList<>();
    DeregistrationResult result = client.deregisterActor("gone", true, false, progress::add);

    assertThat(result.actor()).isEqualTo("gone");
    assertThat(result.cancelled()).isEqualTo(250);
    assertThat(result.batches()).isEqualTo(3);
    assertThat(progress).extracting(BulkProgress::operation).containsOnly("deregister_actor");
    assertThat(progress).extracting(BulkProgress::cancelled).containsExactly(100L, 200L, 250L);
    assertThat(result.actorConfigDeleted()).isTrue();
    assertThat(result.schedulesDisabled()).isZero();
    // The finished job plus the 250 just cancelled.
    assertThat(result.terminalHistory()).isEqualTo(251);
    assertThat(count("actor = 'gone' AND status IN ('pending', 'scheduled')")).isZero();
    assertThat(db.count("job_events WHERE actor = 'gone' AND kind = 'cancelled'")).isEqualTo(250);
    assertThat(db.count("actor_config WHERE actor = 'gone'")).isZero();
    assertThat(count("actor = 'stays' AND status = 'pending'")).isOne();
    assertThat(db.count("actor_config")).isEqualTo(2);
  }

  @Test
  void plain_refusesWhileTheActorHasOpenJobs_andOnlyDeletesItsConfigWhenIdle() throws Exception {
    long id = client.enqueue(JobRequest.of("gone", "{}"));

    assertThatThrownBy(() -> client.deregisterActor("gone", false))
        .isInstanceOf(ActorBusyException.class)
        .hasMessageContaining("open");
    assertThat(db.count("actor_config WHERE actor = 'gone'")).isOne();

    client.cancel(id);
    DeregistrationResult result = client.deregisterActor("gone", false);

    assertThat(result.cancelled()).isZero();
    assertThat(result.batches()).isZero();
    assertThat(result.actorConfigDeleted()).isTrue();
    assertThat(result.terminalHistory()).isOne();
    assertThat(client.deregisterActor("gone", false).actorConfigDeleted())
        .as("deregistering again finds nothing to delete")
        .isFalse();
  }

  @Test
  void purge_deletesTheFreeSlotsOfTheActorAndOfItsQueueWhenNoOtherActorServesIt() throws Exception {
    db.execute(
        db.sql(
            "INSERT INTO {schema}.reservation_slots (scope_kind, scope_name, slot, keyed) VALUES"
                + " ('actor', 'gone', 0, false), ('actor', 'gone', 1, false),"
                + " ('key', 'gone:customer-1', 0, true), ('key', 'gone_q:x', 0, true),"
                + " ('queue', 'gone_q', 0, false), ('queue', 'shared', 0, false),"
                + " ('actor', 'stays', 0, false)"));

    DeregistrationResult gone =
        client.deregisterActor("gone", true, true, BulkProgressListener.NONE);
    DeregistrationResult stays =
        client.deregisterActor("stays", true, true, BulkProgressListener.NONE);

    assertThat(gone.slotsPurged()).isEqualTo(4);
    assertThat(stays.slotsPurged()).as("'shared' is still served by 'other'").isOne();
    assertThat(db.count("reservation_slots")).isEqualTo(2);
    assertThat(db.count("reservation_slots WHERE scope_name = 'shared'")).isOne();
    assertThat(db.count("reservation_slots WHERE scope_name = 'gone_q:x'"))
        .as("a keyed cap of another actor whose name only starts like it")
        .isOne();
  }

  /**
   * With cron schedules in the schema (V003, from the cron work; created here with the columns this
   * statement uses when the schema predates it), the closing transaction disables the actor's.
   */
  @Test
  void theClosingTransaction_disablesTheActorsCronSchedules() throws Exception {
    db.execute(
        db.sql(
            "CREATE TABLE IF NOT EXISTS {schema}.cron_schedules (name text PRIMARY KEY,"
                + " actor text NOT NULL, cron_expression text NOT NULL, payload jsonb,"
                + " next_fire_at timestamptz NOT NULL, enabled boolean NOT NULL DEFAULT true,"
                + " updated_at timestamptz NOT NULL DEFAULT clock_timestamp())"));
    db.execute(
        db.sql(
            "INSERT INTO {schema}.cron_schedules (name, actor, cron_expression, payload,"
                + " next_fire_at) VALUES ('a', 'gone', '* * * * *', '{}', now()),"
                + " ('b', 'gone', '0 * * * *', '{}', now()),"
                + " ('c', 'stays', '* * * * *', '{}', now())"));

    DeregistrationResult result = client.deregisterActor("gone", true);

    assertThat(result.schedulesDisabled()).isEqualTo(2);
    assertThat(db.count("cron_schedules WHERE enabled")).isOne();
    assertThat(db.count("cron_schedules WHERE actor = 'stays' AND enabled")).isOne();
    db.execute(db.sql("DELETE FROM {schema}.cron_schedules"));
  }

  @Test
  void badNames_areRefusedBeforeAnyDatabaseWork() {
    assertThatThrownBy(() -> client.deregisterActor("", true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("actor");
  }
}
