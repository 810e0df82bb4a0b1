package io.taskq.feed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.taskq.TaskQConfig;
import io.taskq.core.internal.NotifyChannels;
import io.taskq.postgres.internal.TestHooks;
import io.taskq.postgres.testing.Db;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * E2 / M2 / D11: the watch follows the feed, woken by the events channel, delivering each event
 * once and in order, and survives losing its listen session. Most watches here poll only once an
 * hour, so a delivery after the first poll proves the notification path.
 */
@TaskQTest
@Tag("E2")
class ReclaimWatchTest {
  private static final Duration PATIENCE = Duration.ofSeconds(60);
  private static final Duration NEVER = Duration.ofHours(1);

  private static FeedFixture f;
  private static DataSource direct;

  private final List<Long> delivered = new CopyOnWriteArrayList<>();
  private String app = "";

  @BeforeAll
  static void migrate(TestServices services) {
    f = new FeedFixture(services.dataSource(), services.schema()).migrate();
    PGSimpleDataSource ds = new PGSimpleDataSource();
    ds.setUrl(services.jdbcUrl());
    direct = ds;
  }

  @BeforeEach
  void emptyFeed() {
    f.reset();
    app = Db.uniqueName("feed-watch-test");
  }

  private ReclaimEventFeed feed(Duration pollInterval) {
    return ReclaimEventFeed.builder(f.ds, f.schema)
        .visibilityDelay(Duration.ZERO)
        .pollInterval(pollInterval)
        .listenDataSource(direct)
        .watchApplicationName(app)
        .build();
  }

  /** The pid of the watch's session once it LISTENs; fails after PATIENCE. */
  private int awaitListening() {
    return await()
        .atMost(PATIENCE)
        .until(
            () ->
                f.db.queryColumn(
                    "SELECT pid FROM pg_stat_activity WHERE application_name = ?"
                        + " AND query LIKE 'LISTEN %'",
                    app),
            pids -> pids.size() == 1)
        .stream()
        .mapToInt(p -> ((Number) p).intValue())
        .findFirst()
        .orElseThrow();
  }

  private long sessions() {
    return f.db.queryLong("SELECT count(*) FROM pg_stat_activity WHERE application_name = ?", app);
  }

  @Test
  void watch_deliversEveryEventOnceInFeedOrder_andAdvancesItsCursor() throws SQLException {
    List<Long> ids = f.commit(5);
    ids.addAll(f.commit(3));

    try (ReclaimWatch watch = feed(NEVER).watchReclaims(FeedCursor.beginning(), e -> add(e))) {
      await().atMost(PATIENCE).until(() -> delivered.size() >= 8);

      assertThat(delivered).containsExactlyElementsOf(f.feedOrder());
      assertThat(watch.cursor()).isEqualTo(f.cursorAfter(delivered.get(7)));
      assertThat(watch.isRunning()).isTrue();
    }
  }

  @Test
  void watch_resumesAfterAStoredCursor() throws SQLException {
    List<Long> ids = f.commit(4);
    FeedCursor stored = FeedCursor.parse(f.cursorAfter(ids.get(1)).toToken());

    try (ReclaimWatch watch = feed(NEVER).watchReclaims(stored, e -> add(e))) {
      await().atMost(PATIENCE).until(() -> delivered.size() >= 2);

      assertThat(delivered).containsExactly(ids.get(2), ids.get(3));
      assertThat(watch.cursor()).isEqualTo(f.cursorAfter(ids.get(3)));
    }
  }

  @Test
  @Tag("M2")
  void watch_listensOnTheSchemasEventsChannel_andANotificationWakesIt() throws SQLException {
    try (ReclaimWatch watch = feed(NEVER).watchReclaims(FeedCursor.beginning(), e -> add(e))) {
      int pid = awaitListening();
      String channel = NotifyChannels.of(f.schema).events().name();
      assertThat(channel).isEqualTo("taskq_events_" + NotifyChannels.tagOf(f.schema));
      assertThat(f.db.queryColumn("SELECT query FROM pg_stat_activity WHERE pid = ?", pid).get(0))
          .isEqualTo("LISTEN " + NotifyChannels.of(f.schema).events().quoted());

      long id = f.commitOne();

      await().atMost(PATIENCE).until(() -> delivered.contains(id));
      assertThat(watch.isRunning()).isTrue();
    }
  }

  @Test
  @Tag("D12")
  void eventHeldBackByAnUnrelatedTransaction_isDeliveredSoonAfterItEnds_withoutANotification()
      throws SQLException {
    ReclaimEventFeed feed = feed(NEVER);
    try (ReclaimWatch watch = feed.watchReclaims(FeedCursor.beginning(), e -> add(e));
        Connection unrelated = f.ds.getConnection()) {
      awaitListening();
      unrelated.setAutoCommit(false);
      FeedFixture.takeXid(unrelated);
      long id = f.commitOne();
      await().atMost(PATIENCE).until(() -> feed.lag().heldBackEvents() == 1);
      assertThat(delivered).isEmpty();

      unrelated.commit(); // writes nothing, notifies nobody

      await().atMost(PATIENCE).until(() -> delivered.contains(id));
      assertThat(watch.isRunning()).isTrue();
    }
  }

  @Test
  void watch_survivesTheTerminationOfItsListenSession() throws SQLException {
    ReclaimEventFeed feed = feed(NEVER);
    try (ReclaimWatch watch = feed.watchReclaims(FeedCursor.beginning(), e -> add(e))) {
      int first = awaitListening();
      long before = f.commitOne();
      await().atMost(PATIENCE).until(() -> delivered.contains(before));

      f.db.queryColumn("SELECT pg_terminate_backend(?)", first);

      int second = awaitListening();
      assertThat(second).isNotEqualTo(first);
      long after = f.commitOne();
      await().atMost(PATIENCE).until(() -> delivered.contains(after));
      assertThat(delivered).containsExactly(before, after);
      assertThat(watch.listenConnects()).isGreaterThanOrEqualTo(2);
      assertThat(watch.isRunning()).isTrue();
    }
  }

  @Test
  @Tag("Q1")
  void reconnect_retriesThroughFailedAttemptsWithBackoff_andPollsMeanwhile() throws SQLException {
    ReclaimEventFeed feed = feed(Duration.ofMillis(100));
    try (ReclaimWatch watch = feed.watchReclaims(FeedCursor.beginning(), e -> add(e))) {
      int first = awaitListening();
      TestHooks.arm(TestHooks.of(feed).feedFaults().listen(), 3);

      f.db.queryColumn("SELECT pg_terminate_backend(?)", first);
      long meanwhile = f.commitOne();

      await().atMost(PATIENCE).until(() -> delivered.contains(meanwhile));
      int second = awaitListening();
      assertThat(second).isNotEqualTo(first);
      assertThat(TestHooks.of(feed).feedFaults().listen().fired()).isEqualTo(3);
      assertThat(TestHooks.of(feed).feedFaults().listen().remaining()).isZero();
      assertThat(watch.isRunning()).isTrue();
    }
  }

  @Test
  @Tag("Q1")
  void failedPolls_areRetriedWithBackoff_andNothingIsLostOrRepeated() throws SQLException {
    ReclaimEventFeed feed = feed(NEVER);
    List<Long> ids = f.commit(3);
    TestHooks.arm(TestHooks.of(feed).feedFaults().poll(), 4);

    try (ReclaimWatch watch = feed.watchReclaims(FeedCursor.beginning(), e -> add(e))) {
      await().atMost(PATIENCE).until(() -> delivered.size() >= 3);

      assertThat(delivered).containsExactlyElementsOf(ids);
      assertThat(TestHooks.of(feed).feedFaults().poll().fired()).isEqualTo(4);
      assertThat(watch.isRunning()).isTrue();
    }
  }

  @Test
  void consumerThatThrows_endsTheWatchLoudly_withTheCursorBeforeTheFailedEvent()
      throws SQLException, InterruptedException {
    List<Long> ids = f.commit(3);
    RuntimeException boom = new IllegalStateException("consumer failed");

    ReclaimWatch watch =
        feed(NEVER)
            .watchReclaims(
                FeedCursor.beginning(),
                e -> {
                  if (e.eventId() == ids.get(1)) {
                    throw boom;
                  }
                  add(e);
                });

    assertThat(watch.awaitTermination(PATIENCE)).isTrue();
    assertThat(watch.failure()).containsSame(boom);
    assertThat(delivered).containsExactly(ids.get(0));
    assertThat(watch.cursor()).isEqualTo(f.cursorAfter(ids.get(0)));
    await().atMost(PATIENCE).until(() -> sessions() == 0);
  }

  @Test
  void close_endsTheThreadAndItsListenSession() {
    ReclaimWatch watch = feed(NEVER).watchReclaims(FeedCursor.beginning(), e -> add(e));
    awaitListening();

    watch.close();

    assertThat(watch.isRunning()).isFalse();
    assertThat(watch.failure()).isEmpty();
    await().atMost(PATIENCE).until(() -> sessions() == 0);
  }

  @Test
  void watch_onThePoolsConnection_givesItBackClean() {
    ReclaimEventFeed feed =
        ReclaimEventFeed.builder(f.ds, f.schema)
            .visibilityDelay(Duration.ZERO)
            .watchApplicationName(app)
            .build();
    try (ReclaimWatch watch = feed.watchReclaims(FeedCursor.beginning(), e -> add(e))) {
      awaitListening();
      assertThat(watch.isRunning()).isTrue();
    }

    assertThat(f.db.queryColumn("SELECT pg_listening_channels()")).isEmpty();
    assertThat(sessions()).isZero();
  }

  @Test
  @Tag("R8")
  void fromConfig_listensThroughTheDirectUrl_andStillPollsWhileItCannot() throws SQLException {
    TaskQConfig config =
        TaskQConfig.builder()
            .schemaName(f.schema)
            .reclaimEventVisibilityDelay(Duration.ofMillis(100))
            .eventWriterStatementTimeout(Duration.ofMillis(80))
            .pollInterval(Duration.ofMillis(100))
            .databaseDirectUrl("jdbc:postgresql://127.0.0.1:1/nowhere")
            .connectTimeout(Duration.ofSeconds(1))
            .build();
    ReclaimEventFeed feed = ReclaimEventFeed.create(f.ds, config);
    long id = f.commitOne();

    try (ReclaimWatch watch = feed.watchReclaims(FeedCursor.beginning(), e -> add(e))) {
      await().atMost(PATIENCE).until(() -> delivered.contains(id));

      // The watch opens its listen session before its first poll: had it used the pool, the
      // session would exist by now. Only this schema's channel is counted: other tests (and other
      // databases) on the shared server run feeds with the default application name (R8).
      assertThat(
              f.db.queryLong(
                  "SELECT count(*) FROM pg_stat_activity WHERE application_name = ?"
                      + " AND datname = current_database() AND query = ?",
                  ReclaimEventFeed.DEFAULT_APPLICATION_NAME,
                  "LISTEN " + NotifyChannels.of(f.schema).events().quoted()))
          .isZero();
      assertThat(watch.listenConnects()).isZero();
      assertThat(watch.isRunning()).isTrue();
    }
  }

  private void add(ReclaimEvent e) {
    delivered.add(e.eventId());
  }
}
