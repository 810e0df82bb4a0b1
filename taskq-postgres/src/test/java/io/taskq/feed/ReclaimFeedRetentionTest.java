package io.taskq.feed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.taskq.postgres.internal.feed.FeedPosition;
import io.taskq.postgres.internal.maintenance.SweepCatalog;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * E2 / S8: the retention cut. The watermark is the feed position of the last crash-reclaim event
 * the sweep deleted; a cursor is stranded exactly when the watermark sorts after it.
 */
@TaskQTest
@Tag("E2")
@Tag("S8")
class ReclaimFeedRetentionTest {
  private static FeedFixture f;
  private static ReclaimEventFeed feed;

  private long r1;
  private long r2;
  private long r3;
  private FeedCursor afterR1 = FeedCursor.beginning();

  @BeforeAll
  static void migrate(TestServices services) {
    f = new FeedFixture(services.dataSource(), services.schema()).migrate();
    feed = ReclaimEventFeed.builder(f.ds, f.schema).visibilityDelay(Duration.ZERO).build();
  }

  @BeforeEach
  void threeEventsAndAConsumerAfterTheFirst() throws SQLException {
    f.reset();
    r1 = f.commitOne();
    r2 = f.commitOne();
    r3 = f.commitOne();
    f.awaitHorizon();
    ReclaimEventPage first = feed.pollReclaimEvents(FeedCursor.beginning(), 1);
    assertThat(FeedFixture.ids(first.events())).containsExactly(r1);
    afterR1 = first.cursor();
  }

  @Test
  void pruningExactlyUpToTheCursor_isFine() {
    f.prune(r1);

    ReclaimEventPage page = feed.pollReclaimEvents(afterR1, 10);

    assertThat(FeedFixture.ids(page.events())).containsExactly(r2, r3);
  }

  @Test
  void pruningOnePastTheCursor_raisesWithTheCursorAndTheWatermark() {
    f.prune(r1);
    FeedCursor watermark = f.prune(r2);

    assertThatThrownBy(() -> feed.pollReclaimEvents(afterR1, 10))
        .isInstanceOfSatisfying(
            EventRetentionGapException.class,
            e -> {
              assertThat(e.cursor()).isEqualTo(afterR1);
              assertThat(e.watermark()).isEqualTo(watermark);
              assertThat(e.resumeCursor()).isEqualTo(watermark);
              assertThat(e.getMessage())
                  .contains(afterR1.toToken())
                  .contains(watermark.toToken())
                  .contains("Reconcile")
                  .contains("resume explicitly")
                  .contains("TASKQ_EVENT_RETENTION_PERIOD");
            });
  }

  @Test
  void gap_keepsRaisingUntilTheConsumerResumesExplicitly_thenTheRestIsDelivered() {
    FeedCursor watermark = f.prune(r2);

    assertThatThrownBy(() -> feed.pollReclaimEvents(afterR1, 10))
        .isInstanceOf(EventRetentionGapException.class);
    assertThatThrownBy(() -> feed.pollReclaimEvents(afterR1, 10))
        .isInstanceOf(EventRetentionGapException.class);

    assertThat(FeedFixture.ids(feed.pollReclaimEvents(watermark, 10).events())).containsExactly(r3);
  }

  @Test
  void watermarkBetweenPositions_countsAsPrunedPastACursorBeforeIt() {
    // The sweep prunes in time order, not feed order: it may delete r2 and keep r1.
    FeedCursor watermark = f.prune(r2);

    assertThatThrownBy(() -> feed.pollReclaimEvents(FeedCursor.beginning(), 10))
        .isInstanceOfSatisfying(
            EventRetentionGapException.class,
            e -> assertThat(e.cursor()).isEqualTo(FeedCursor.beginning()));
    assertThatThrownBy(() -> feed.pollReclaimEvents(afterR1, 10))
        .isInstanceOf(EventRetentionGapException.class);
    assertThat(feed.pollReclaimEvents(watermark, 10).events()).hasSize(1);
  }

  @Test
  void watch_endsLoudlyWithTheGap_deliveringNothingPastIt() throws InterruptedException {
    f.prune(r1);
    f.prune(r2);
    List<Long> delivered = new CopyOnWriteArrayList<>();

    ReclaimWatch watch = feed.watchReclaims(afterR1, e -> delivered.add(e.eventId()));

    assertThat(watch.awaitTermination(Duration.ofSeconds(30))).isTrue();
    assertThat(watch.isRunning()).isFalse();
    assertThat(watch.failure()).containsInstanceOf(EventRetentionGapException.class);
    assertThat(watch.cursor()).isEqualTo(afterR1);
    assertThat(delivered).isEmpty();
  }

  @Test
  void watch_endsLoudlyWhenThePruneOvertakesItWhileItRuns() throws SQLException {
    List<Long> delivered = new CopyOnWriteArrayList<>();
    ReclaimEventFeed slow =
        ReclaimEventFeed.builder(f.ds, f.schema)
            .visibilityDelay(Duration.ofHours(1))
            .pollInterval(Duration.ofMillis(50))
            .build();
    try (ReclaimWatch watch = slow.watchReclaims(afterR1, e -> delivered.add(e.eventId()))) {
      f.prune(r2);

      await().atMost(Duration.ofSeconds(30)).until(() -> !watch.isRunning());

      assertThat(watch.failure()).containsInstanceOf(EventRetentionGapException.class);
      assertThat(delivered).isEmpty();
    }
  }

  @Test
  void realEventTtlSweep_withAShrunkRetention_strandsOnlyACursorItPrunedPast() throws SQLException {
    f.reset();
    long twoHoursOld = backdated("2 hours");
    long oneHourOld = backdated("1 hour");
    long fresh = f.commitOne();
    f.awaitHorizon();
    ReclaimEventPage first = feed.pollReclaimEvents(FeedCursor.beginning(), 1);
    assertThat(FeedFixture.ids(first.events())).containsExactly(twoHoursOld);

    // The reclaim slice is kept 100 x the retention: 54 s keeps it 90 minutes.
    assertThat(sweep(Duration.ofSeconds(54))).isOne();
    assertThat(FeedFixture.ids(feed.pollReclaimEvents(first.cursor(), 10).events()))
        .containsExactly(oneHourOld, fresh);

    // 18 s keeps it 30 minutes: the sweep deletes an event the consumer has not read.
    assertThat(sweep(Duration.ofSeconds(18))).isOne();
    assertThatThrownBy(() -> feed.pollReclaimEvents(first.cursor(), 10))
        .isInstanceOfSatisfying(
            EventRetentionGapException.class,
            e -> {
              assertThat(e.cursor()).isEqualTo(first.cursor());
              assertThat(e.watermark()).isEqualTo(new FeedCursor(positions.get(oneHourOld)));
            });
  }

  private final Map<Long, FeedPosition> positions = new HashMap<>();

  /** One committed reclaim event written {@code ago} in the past; remembers its position. */
  private long backdated(String ago) {
    long id =
        f.db.queryLong(
            "INSERT INTO "
                + f.t("job_events")
                + " (job_id, kind, actor, queue, attempt, occurred_at)"
                + " VALUES (1, 'reclaimed', 'mail', 'q', 1, clock_timestamp() - interval '"
                + ago
                + "') RETURNING event_id");
    positions.put(id, f.position(id));
    return id;
  }

  /** One batch of the real S8 sweep with {@code retention}; rows deleted. */
  private static int sweep(Duration retention) throws SQLException {
    try (Connection tx = f.ds.getConnection()) {
      tx.setAutoCommit(false);
      int deleted = SweepCatalog.SWEEP_EXPIRED_EVENTS.batch(f.schema, retention).run(tx, 100);
      tx.commit();
      return deleted;
    }
  }

  @Test
  void gapException_survivesSerialization() throws IOException, ClassNotFoundException {
    EventRetentionGapException e = new EventRetentionGapException(afterR1, f.cursorAfter(r3));

    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(e);
    }
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      EventRetentionGapException back = (EventRetentionGapException) in.readObject();
      assertThat(back.cursor()).isEqualTo(afterR1);
      assertThat(back.watermark()).isEqualTo(f.cursorAfter(r3));
    }
  }
}
