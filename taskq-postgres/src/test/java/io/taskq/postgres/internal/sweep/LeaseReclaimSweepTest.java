package io.taskq.postgres.internal.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.SchemaName;
import io.taskq.core.internal.NotifyChannels;
import io.taskq.postgres.testing.RecordingListener;
import io.taskq.postgres.testing.SweepRows;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

@TaskQTest
@Tag("S1")
class LeaseReclaimSweepTest {
  private static final Duration TIMEOUT = Duration.ofMillis(1750);

  private SweepRows rows;
  private DataSource dataSource;
  private SchemaName schema;
  private RecordingListener listener;
  private BatchExecutor executor;

  @BeforeEach
  void setUp(TestServices services) {
    rows = SweepRows.migrated(services);
    rows.clear();
    rows.worker("w-live", Duration.ZERO);
    dataSource = services.dataSource();
    schema = SchemaName.of(services.schema());
    listener = new RecordingListener();
    executor = new BatchExecutor(schema);
  }

  private int batch(int size) throws SQLException {
    return batch(size, Duration.ofHours(1));
  }

  private int batch(int size, Duration maxRetryBackoff) throws SQLException {
    LeaseReclaimSweep sweep =
        new LeaseReclaimSweep(schema, Duration.ofSeconds(60), maxRetryBackoff, listener);
    return executor.runInOwnTransaction(dataSource, sweep, size, TIMEOUT, BatchFence.NONE);
  }

  @Test
  void leaseArm_repends_aRetryableJob_throughItsOwnPolicy() throws SQLException {
    long id =
        rows.jobs(1).policy("exponential", 1_000, 60_000).attempt(3).maxAttempts(5).insert().get(0);

    assertThat(batch(100)).isEqualTo(1);

    assertThat(rows.status(id)).isEqualTo("pending");
    assertThat(rows.count("id = ? AND locked_by IS NULL AND lock_expires_at IS NULL", id))
        .isEqualTo(1);
    // exponential 1000 ms at attempt 3 = 4000 ms after the reclaim instant (jitter 0).
    assertThat(
            rows.one(
                "SELECT (extract(epoch FROM j.run_at - e.occurred_at) * 1000)::bigint"
                    + " FROM {schema}.jobs j JOIN {schema}.job_events e ON e.job_id = j.id"))
        .isBetween(3_500L, 4_000L);
    assertThat(
            rows.column(
                "SELECT attempt || ' ' || worker_id || ' ' || outcome || ' ' || error_class"
                    + " FROM {schema}.job_attempts"))
        .containsExactly("3 w-live repended LeaseExpired");
    assertThat(
            rows.column(
                "SELECT kind || ' ' || disposition || ' ' || actor || ' ' || queue || ' ' ||"
                    + " attempt || ' ' || error_class FROM {schema}.job_events"))
        .containsExactly("reclaimed repended mailer default 3 LeaseExpired");
  }

  @Test
  void reschedule_isCappedByMaxRetryBackoff() throws SQLException {
    rows.jobs(1).policy("constant", 30_000, 60_000).insert();

    batch(100, Duration.ofSeconds(2));

    assertThat(
            rows.one(
                "SELECT (extract(epoch FROM j.run_at - e.occurred_at) * 1000)::bigint"
                    + " FROM {schema}.jobs j JOIN {schema}.job_events e ON e.job_id = j.id"))
        .isBetween(1_500L, 2_000L);
  }

  @Test
  void aJobWithoutAttemptsLeft_crashes_andOneWithACancelInFlight_isCancelled() throws SQLException {
    long crashed = rows.jobs(1).attempt(3).maxAttempts(3).insert().get(0);
    long cancelled = rows.jobs(1).attempt(1).maxAttempts(3).cancelRequested().insert().get(0);

    assertThat(batch(100)).isEqualTo(2);

    assertThat(rows.status(crashed)).isEqualTo("crashed");
    assertThat(rows.status(cancelled)).isEqualTo("cancelled");
    assertThat(rows.count("finished_at IS NOT NULL")).isEqualTo(2);
    assertThat(rows.column("SELECT outcome FROM {schema}.job_attempts ORDER BY job_id"))
        .containsExactly("crashed", "cancelled");
    assertThat(rows.column("SELECT disposition FROM {schema}.job_events ORDER BY job_id"))
        .containsExactly("crashed", "cancelled");
  }

  @Test
  void heartbeatArm_reclaimsTheJobsOfAStaleOrVanishedOwner_evenWithALiveLease()
      throws SQLException {
    rows.worker("w-stale", Duration.ofMinutes(5));
    long stale = rows.jobs(1).owner("w-stale").leaseIn(Duration.ofHours(1)).insert().get(0);
    long vanished = rows.jobs(1).owner("w-gone").leaseIn(Duration.ofHours(1)).insert().get(0);

    assertThat(batch(100)).isEqualTo(2);

    assertThat(rows.status(stale)).isEqualTo("pending");
    assertThat(rows.status(vanished)).isEqualTo("pending");
    assertThat(
            rows.column(
                "SELECT coalesce(worker_id, '-') || ' ' || error_class FROM {schema}.job_attempts"
                    + " ORDER BY job_id"))
        .containsExactly("w-stale WorkerLost", "- WorkerLost");
  }

  @Test
  void jobsOfALiveOwnerWithALiveLease_areLeftAlone() throws SQLException {
    long live = rows.jobs(1).leaseIn(Duration.ofHours(1)).insert().get(0);

    assertThat(batch(100)).isZero();

    assertThat(rows.status(live)).isEqualTo("running");
    assertThat(rows.attempts()).isZero();
    assertThat(rows.events()).isZero();
    assertThat(listener.signals()).isEmpty();
  }

  @Test
  void eachArm_limitsAtTheBatchSize_soOneCallTakesAtMostTwiceIt() throws SQLException {
    rows.worker("w-stale", Duration.ofMinutes(5));
    rows.jobs(5).insert();
    rows.jobs(5).owner("w-stale").leaseIn(Duration.ofHours(1)).insert();

    assertThat(batch(3)).isEqualTo(6);

    assertThat(rows.count("error_class = 'LeaseExpired'")).isEqualTo(3);
    assertThat(rows.count("error_class = 'WorkerLost'")).isEqualTo(3);
    assertThat(rows.count("status = 'running'")).isEqualTo(4);
  }

  @Test
  @Tag("O5")
  void reclaimCounts_arePublishedPerActorAndDisposition_onceTheBatchCommits() throws SQLException {
    rows.jobs(2).actor("mailer").insert();
    rows.jobs(1).actor("billing").attempt(3).maxAttempts(3).insert();

    batch(100);

    assertThat(listener.signals())
        .containsExactlyInAnyOrder("reclaimed mailer repended 2", "reclaimed billing crashed 1");
  }

  @Test
  @Tag("O5")
  void aBatchThatRollsBack_publishesNoReclaimCounts() throws SQLException {
    rows.jobs(2).insert();
    LeaseReclaimSweep sweep =
        new LeaseReclaimSweep(schema, Duration.ofSeconds(60), Duration.ofHours(1), listener);
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      assertThat(executor.runNested(c, sweep, 100, TIMEOUT, BatchFence.NONE)).isEqualTo(2);
      c.rollback();
    }

    assertThat(listener.signals()).isEmpty();
    assertThat(rows.count("status = 'running'")).isEqualTo(2);
  }

  @Test
  @Tag("M2")
  void repending_firesOneWakeNotify_andCrashingAlone_firesNone(TestServices services)
      throws SQLException {
    String channel = NotifyChannels.of(schema).wake().name();
    try (Connection listen = DriverManager.getConnection(services.jdbcUrl());
        Statement s = listen.createStatement()) {
      s.execute("LISTEN " + channel);
      PGConnection pg = listen.unwrap(PGConnection.class);

      rows.jobs(3).insert();
      batch(100);
      List<PGNotification> woken = notifications(pg, 5_000);
      woken.addAll(notifications(pg, 200));
      assertThat(woken).extracting(PGNotification::getName).containsExactly(channel);

      rows.jobs(2).attempt(3).maxAttempts(3).insert();
      assertThat(batch(100)).isEqualTo(2);
      assertThat(notifications(pg, 300)).isEmpty();
    }
  }

  private static List<PGNotification> notifications(PGConnection pg, int waitMillis)
      throws SQLException {
    PGNotification[] got = pg.getNotifications(waitMillis);
    return got == null ? new ArrayList<>() : new ArrayList<>(List.of(got));
  }

  @Test
  @Tag("B4")
  void aHundredRowBatch_writesDistinctOccurredAtValues_inEventIdOrder() throws SQLException {
    rows.jobs(100).insert();

    assertThat(batch(100)).isEqualTo(100);

    assertThat(rows.one("SELECT count(DISTINCT occurred_at) FROM {schema}.job_events"))
        .isEqualTo(100);
    assertThat(
            rows.one(
                "SELECT count(*) FROM (SELECT occurred_at, lag(occurred_at) OVER (ORDER BY"
                    + " event_id) AS before FROM {schema}.job_events) t"
                    + " WHERE before IS NOT NULL AND occurred_at <= before"))
        .isZero();
    assertThat(
            rows.one(
                "SELECT (extract(epoch FROM max(occurred_at) - min(occurred_at)) * 1000000)::bigint"
                    + " FROM {schema}.job_events"))
        .isEqualTo(99);
  }
}
