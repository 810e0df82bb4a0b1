package io.taskq.feed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.taskq.JobRequest;
import io.taskq.JobsClient;
import io.taskq.TestHandles;
import io.taskq.postgres.internal.sweep.LeaseReclaimSweep;
import io.taskq.postgres.testing.Db;
import io.taskq.spi.MaintenanceListener;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * E2 / M2 / B1: the real lease-reclaim sweep (S1) tells reclaim watches that it wrote events, with
 * one {@code NOTIFY taskq_events_{tag}} per batch, so a watch whose polling fallback is an hour
 * still delivers a reclaim promptly.
 */
@TaskQTest
@Tag("E2")
@Tag("M2")
class ReclaimNotifyTest {
  private static final Duration NEVER = Duration.ofHours(1);
  private static final Duration PROMPTLY = Duration.ofSeconds(30);

  private static FeedFixture f;
  private static String jdbcUrl = "";

  @BeforeAll
  static void migrate(TestServices services) {
    f = new FeedFixture(services.dataSource(), services.schema()).migrate();
    jdbcUrl = services.jdbcUrl();
  }

  @BeforeEach
  void empty() {
    f.reset();
    f.db.execute("TRUNCATE " + f.t("jobs") + " CASCADE");
  }

  /** Enqueues {@code n} jobs and makes them look owned by a dead worker whose lease expired. */
  private List<Long> expiredLeases(int n) {
    JobsClient client = TestHandles.jobs(f.ds, f.schema);
    List<Long> ids = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ids.add(client.enqueue(JobRequest.builder("mail").queue("q").maxAttempts(3).build()));
    }
    f.db.update(
        "UPDATE "
            + f.t("jobs")
            + " SET status = 'running', attempt = 1, locked_by = 'gone',"
            + " lock_expires_at = clock_timestamp() - interval '1 minute', lease_token = 1");
    return ids;
  }

  /** Runs one batch of the real sweep and commits it; the rows it reclaimed. */
  private static int sweepBatch(int batchSize) throws SQLException {
    try (Connection tx = f.ds.getConnection()) {
      tx.setAutoCommit(false);
      LeaseReclaimSweep sweep =
          new LeaseReclaimSweep(
              f.schema, Duration.ofMinutes(1), Duration.ofHours(1), MaintenanceListener.NONE);
      int rows = sweep.run(tx, batchSize);
      tx.commit();
      return rows;
    }
  }

  private static List<PGNotification> drain(PGConnection pg, int waitMillis) throws SQLException {
    List<PGNotification> all = new ArrayList<>();
    PGNotification[] got = pg.getNotifications(waitMillis);
    while (got != null && got.length > 0) {
      all.addAll(List.of(got));
      got = pg.getNotifications(200);
    }
    return all;
  }

  @Test
  @Tag("B1")
  void aBatchThatWroteEvents_notifiesTheEventsChannelOnce_andAnEmptyBatchNotAtAll()
      throws SQLException {
    try (Connection listen = DriverManager.getConnection(jdbcUrl);
        Statement s = listen.createStatement()) {
      s.execute("LISTEN " + f.channel);
      PGConnection pg = listen.unwrap(PGConnection.class);

      expiredLeases(30);
      assertThat(sweepBatch(100)).isEqualTo(30);

      List<PGNotification> got = drain(pg, 5_000);
      assertThat(got).extracting(PGNotification::getName).containsExactly(f.channel);
      assertThat(got.get(0).getParameter()).isEmpty();

      assertThat(sweepBatch(100)).isZero();
      assertThat(drain(pg, 300)).isEmpty();
    }
  }

  @Test
  void aWatchPollingOnlyHourly_receivesARealReclaimPromptly() throws SQLException {
    PGSimpleDataSource direct = new PGSimpleDataSource();
    direct.setUrl(jdbcUrl);
    String app = Db.uniqueName("reclaim-notify-test");
    ReclaimEventFeed feed =
        ReclaimEventFeed.builder(f.ds, f.schema)
            .visibilityDelay(Duration.ZERO)
            .pollInterval(NEVER)
            .listenDataSource(direct)
            .watchApplicationName(app)
            .build();
    List<Long> delivered = new CopyOnWriteArrayList<>();
    try (ReclaimWatch watch =
        feed.watchReclaims(FeedCursor.beginning(), e -> delivered.add(e.jobId()))) {
      // Listening, and past its first poll: from here on only a notification wakes it (or the
      // hour-long fallback).
      await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () ->
                  f.db.queryLong(
                      "SELECT count(*) FROM pg_stat_activity WHERE application_name = ?"
                          + " AND query LIKE 'LISTEN %'",
                      app),
              n -> n == 1);
      List<Long> jobs = expiredLeases(3);

      assertThat(sweepBatch(100)).isEqualTo(3);

      await().atMost(PROMPTLY).until(() -> delivered.size() == 3);
      assertThat(delivered).containsExactlyInAnyOrderElementsOf(jobs);
      assertThat(watch.isRunning()).isTrue();
    }
  }
}
