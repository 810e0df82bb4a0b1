package io.taskq.feed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import io.taskq.JobRequest;
import io.taskq.JobsClient;
import io.taskq.TestHandles;
import io.taskq.postgres.internal.NamedStatements;
import io.taskq.postgres.internal.sweep.LeaseReclaimSweep;
import io.taskq.spi.MaintenanceListener;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@TaskQTest
@Tag("E1")
class ReclaimEventPollTest {
  private static FeedFixture f;

  @BeforeAll
  static void migrate(TestServices services) {
    f = new FeedFixture(services.dataSource(), services.schema()).migrate();
  }

  @BeforeEach
  void emptyFeed() {
    f.reset();
  }

  private static ReclaimEventFeed feed(Duration delay) {
    return ReclaimEventFeed.builder(f.ds, f.schema).visibilityDelay(delay).build();
  }

  @Test
  void poll_returnsEachEventWithItsFieldsAndTheCursorAfterIt() throws SQLException {
    List<Long> ids = f.commit(3);
    f.awaitHorizon();

    ReclaimEventPage page = feed(Duration.ZERO).pollReclaimEvents(FeedCursor.beginning(), 10);

    assertThat(FeedFixture.ids(page.events())).containsExactlyElementsOf(ids);
    assertThat(page.more()).isFalse();
    ReclaimEvent first = page.events().get(0);
    assertThat(first.jobId()).isEqualTo(1001);
    assertThat(first.actor()).isEqualTo("mail");
    assertThat(first.queue()).isEqualTo("q");
    assertThat(first.attempt()).isEqualTo(2);
    assertThat(first.disposition()).isEqualTo("crashed");
    assertThat(first.errorClass()).isEqualTo("LeaseExpired");
    assertThat(first.errorMessage()).isEqualTo("the lease expired");
    assertThat(first.occurredAt()).isBefore(page.events().get(1).occurredAt());
    assertThat(first.cursor()).isEqualTo(f.cursorAfter(ids.get(0)));
    assertThat(page.cursor()).isEqualTo(page.events().get(2).cursor());
  }

  @Test
  void poll_continuesFromTheCursorItReturned_andAnEmptyPageKeepsTheCursor() throws SQLException {
    List<Long> ids = f.commit(5);
    f.awaitHorizon();
    ReclaimEventFeed feed = feed(Duration.ZERO);

    ReclaimEventPage first = feed.pollReclaimEvents(FeedCursor.beginning(), 2);
    ReclaimEventPage second = feed.pollReclaimEvents(first.cursor(), 2);
    ReclaimEventPage third = feed.pollReclaimEvents(second.cursor(), 2);
    ReclaimEventPage empty = feed.pollReclaimEvents(third.cursor(), 2);

    assertThat(first.more()).isTrue();
    assertThat(second.more()).isTrue();
    assertThat(third.more()).isFalse();
    List<Long> seen = new ArrayList<>(FeedFixture.ids(first.events()));
    seen.addAll(FeedFixture.ids(second.events()));
    seen.addAll(FeedFixture.ids(third.events()));
    assertThat(seen).containsExactlyElementsOf(ids);
    assertThat(empty.events()).isEmpty();
    assertThat(empty.cursor()).isEqualTo(third.cursor());
    assertThat(feed.pollReclaimEvents(first.cursor(), 10).events()).hasSize(3);
  }

  @Test
  @Tag("S1")
  void eventsOfTheRealLeaseReclaimSweep_reachTheFeedWithTheirDisposition() throws SQLException {
    JobsClient client = TestHandles.jobs(f.ds, f.schema);
    long retried = client.enqueue(JobRequest.builder("mail").queue("q").maxAttempts(3).build());
    long exhausted = client.enqueue(JobRequest.builder("mail").queue("q").maxAttempts(1).build());
    f.db.update(
        "UPDATE "
            + f.t("jobs")
            + " SET status = 'running', attempt = 1, locked_by = 'gone',"
            + " lock_expires_at = clock_timestamp() - interval '1 minute', lease_token = 1");
    try (Connection tx = f.ds.getConnection()) {
      tx.setAutoCommit(false);
      LeaseReclaimSweep sweep =
          new LeaseReclaimSweep(
              f.schema, Duration.ofMinutes(1), Duration.ofHours(1), MaintenanceListener.NONE);
      assertThat(sweep.run(tx, 100)).isEqualTo(2);
      tx.commit();
    }
    f.awaitHorizon();

    List<ReclaimEvent> events =
        feed(Duration.ZERO).pollReclaimEvents(FeedCursor.beginning(), 10).events();

    assertThat(events)
        .extracting(ReclaimEvent::jobId, ReclaimEvent::disposition, ReclaimEvent::errorClass)
        .containsExactlyInAnyOrder(
            tuple(retried, "repended", "LeaseExpired"),
            tuple(exhausted, "crashed", "LeaseExpired"));
    assertThat(events).allSatisfy(e -> assertThat(e.attempt()).isOne());
  }

  @Test
  void poll_ignoresEventsOfOtherKinds() throws SQLException {
    long reclaimed = f.commitOne();
    f.db.update(
        "INSERT INTO "
            + f.t("job_events")
            + " (job_id, kind, actor, queue, attempt, occurred_at)"
            + " VALUES (7, 'cancelled', 'mail', 'q', 0, clock_timestamp() - interval '1 hour')");
    f.awaitHorizon();

    ReclaimEventPage page = feed(Duration.ZERO).pollReclaimEvents(FeedCursor.beginning(), 10);

    assertThat(FeedFixture.ids(page.events())).containsExactly(reclaimed);
  }

  @Test
  @Tag("D12")
  void order_isByWriterTransactionThenEventId_notByEventId() throws SQLException {
    long later;
    long earlier;
    try (Connection a = f.ds.getConnection();
        Connection b = f.ds.getConnection()) {
      a.setAutoCommit(false);
      b.setAutoCommit(false);
      FeedFixture.takeXid(a); // A's transaction id is the lower one ...
      earlier = f.insertOne(b); // ... but B draws the lower event id
      b.commit();
      later = f.insertOne(a);
      a.commit();
    }
    assertThat(earlier).isLessThan(later);
    f.awaitHorizon();

    ReclaimEventPage page = feed(Duration.ZERO).pollReclaimEvents(FeedCursor.beginning(), 10);

    assertThat(FeedFixture.ids(page.events())).containsExactly(later, earlier);
    assertThat(f.feedOrder()).containsExactly(later, earlier);
  }

  @Test
  void eventYoungerThanTheDelay_isNotReturned_andOneOlderIs() {
    long young = backdated("59 minutes");
    long old = backdated("61 minutes");
    ReclaimEventFeed feed = feed(Duration.ofHours(1));
    f.awaitHorizon();

    // Written in that order, `young` sorts first and holds `old` back: the cursor cannot pass it.
    assertThat(feed.pollReclaimEvents(FeedCursor.beginning(), 10).events()).isEmpty();

    f.db.update("DELETE FROM " + f.t("job_events") + " WHERE event_id = ?", young);
    assertThat(FeedFixture.ids(feed.pollReclaimEvents(FeedCursor.beginning(), 10).events()))
        .containsExactly(old);
  }

  @Test
  void youngEvent_holdsBackTheEventsAfterIt_butNotTheOnesBefore() {
    long old = backdated("2 hours");
    long young = backdated("1 minute");
    long afterYoung = backdated("3 hours");
    f.awaitHorizon();

    ReclaimEventPage page = feed(Duration.ofHours(1)).pollReclaimEvents(FeedCursor.beginning(), 10);

    assertThat(FeedFixture.ids(page.events())).containsExactly(old);
    assertThat(page.more()).isFalse();
    assertThat(page.cursor()).isEqualTo(f.cursorAfter(old));
    assertThat(young).isLessThan(afterYoung);
  }

  @Test
  void eventBecomesVisible_onceTheDelayHasPassed() throws SQLException {
    ReclaimEventFeed feed = feed(Duration.ofMillis(300));
    long id = f.commitOne();

    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> FeedFixture.ids(feed.pollReclaimEvents(FeedCursor.beginning(), 10).events()),
            ids -> ids.contains(id));

    assertThat(f.ageMillis(id)).isGreaterThanOrEqualTo(300);
  }

  @Test
  void limitOutsideItsRange_isRefusedNamingIt() {
    ReclaimEventFeed feed = feed(Duration.ZERO);

    for (int limit : new int[] {0, -1, ReclaimEventFeed.MAX_LIMIT + 1}) {
      assertThatThrownBy(() -> feed.pollReclaimEvents(FeedCursor.beginning(), limit))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("limit must be in [1, 10000], was " + limit);
    }
  }

  @Test
  @Tag("D12")
  void poll_scansTheFeedIndexFromTheCursor_withoutSorting() throws SQLException {
    f.db.update(
        "INSERT INTO "
            + f.t("job_events")
            + " (job_id, kind, actor, queue, attempt, occurred_at)"
            + " SELECT g, CASE WHEN g % 4 = 0 THEN 'reclaimed' ELSE 'cancelled' END, 'mail', 'q',"
            + " 1, clock_timestamp() FROM generate_series(1, 20000) g");
    f.db.execute("ANALYZE " + f.t("job_events"));
    String poll = NamedStatements.load("io/taskq/postgres/sql/feed.sql", f.schema).get("poll");

    StringBuilder plan = new StringBuilder();
    try (Connection c = f.ds.getConnection();
        PreparedStatement ps = c.prepareStatement("EXPLAIN " + poll)) {
      ps.setLong(1, 0);
      ps.setString(2, "5");
      ps.setLong(3, 7);
      ps.setInt(4, 100);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          plan.append(rs.getString(1)).append('\n');
        }
      }
    }

    assertThat(plan.toString())
        .contains("Index Scan using job_events_feed_idx")
        .doesNotContain("Seq Scan on job_events");
  }

  /** One committed event written {@code ago} in the past, in its own transaction. */
  private static long backdated(String ago) {
    return f.db.queryLong(
        "INSERT INTO "
            + f.t("job_events")
            + " (job_id, kind, actor, queue, attempt, occurred_at)"
            + " VALUES (1, 'reclaimed', 'mail', 'q', 1, clock_timestamp() - interval '"
            + ago
            + "') RETURNING event_id");
  }
}
