package io.taskq.feed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * E4 / D12: a writer that stalls between INSERT and COMMIT for longer than the visibility delay
 * loses no event. Under the guide's time-only watermark with an event-id cursor, the consumer would
 * deliver B, move its cursor past A's lower event id, and never see A once A commits.
 */
@TaskQTest
@Tag("E4")
@Tag("D12")
class ReclaimFeedStallTest {
  private static final Duration DELAY = Duration.ofMillis(300);
  private static final Duration PATIENCE = Duration.ofSeconds(60);

  private static FeedFixture f;
  private static ReclaimEventFeed feed;

  @BeforeAll
  static void migrate(TestServices services) {
    f = new FeedFixture(services.dataSource(), services.schema()).migrate();
    feed = ReclaimEventFeed.builder(f.ds, f.schema).visibilityDelay(DELAY).build();
  }

  @BeforeEach
  void emptyFeed() {
    f.reset();
  }

  @Test
  void stalledWriter_isDeliveredOnceAfterItCommits_andNothingAfterItWasDeliveredBefore()
      throws SQLException {
    long before = f.commitOne();
    Consumer consumer = new Consumer();
    await().atMost(PATIENCE).until(() -> consumer.pollOnce().contains(before));
    long a;
    long b;
    try (Connection txA = f.ds.getConnection()) {
      txA.setAutoCommit(false);
      a = f.insertOne(txA);
      b = f.commitOne();
      assertThat(a).isLessThan(b);
      awaitOlderThanTheDelay(b); // A's row is older still: it was inserted first

      assertThat(consumer.pollOnce()).isEmpty();
      assertThat(consumer.pollOnce()).isEmpty();

      txA.commit();
    }
    await().atMost(PATIENCE).until(() -> consumer.drain().containsAll(List.of(a, b)));

    assertThat(consumer.delivered).containsExactly(before, a, b);
  }

  @Test
  void stalledWriterWithTheHigherEventId_stillSortsFirst() throws SQLException {
    Consumer consumer = new Consumer();
    long a;
    long b;
    try (Connection txA = f.ds.getConnection()) {
      txA.setAutoCommit(false);
      FeedFixture.takeXid(txA); // A's transaction is older ...
      b = f.commitOne(); // ... B draws the lower event id and commits first
      awaitOlderThanTheDelay(b);
      assertThat(consumer.pollOnce()).isEmpty();
      a = f.insertOne(txA);
      txA.commit();
    }
    assertThat(a).isGreaterThan(b);

    await().atMost(PATIENCE).until(() -> consumer.drain().containsAll(List.of(a, b)));

    assertThat(consumer.delivered).containsExactly(a, b);
  }

  @Test
  void heldBackFeed_reportsItsLagAndTheTransactionHoldingIt() throws SQLException {
    try (Connection txA = f.ds.getConnection()) {
      txA.setAutoCommit(false);
      f.insertOne(txA);
      int pidA = FeedFixture.pid(txA);
      long b = f.commitOne();
      awaitOlderThanTheDelay(b);

      await()
          .atMost(PATIENCE)
          .untilAsserted(
              () -> {
                ReclaimFeedLag lag = feed.lag();
                assertThat(lag.heldBackEvents()).isOne();
                assertThat(lag.oldestHeldBackEventAge()).isGreaterThanOrEqualTo(DELAY);
                assertThat(lag.oldestTransactionPid()).isEqualTo(pidA);
                assertThat(lag.oldestTransactionAge()).isGreaterThanOrEqualTo(DELAY);
              });
      txA.rollback();
    }
    await().atMost(PATIENCE).until(() -> feed.lag().heldBackEvents() == 0);
    assertThat(feed.lag().oldestHeldBackEventAge()).isZero();
  }

  @Test
  void rolledBackWriter_leavesAGapTheFeedPassesWithoutWaitingForever() throws SQLException {
    Consumer consumer = new Consumer();
    long r;
    long b;
    try (Connection txR = f.ds.getConnection()) {
      txR.setAutoCommit(false);
      r = f.insertOne(txR);
      b = f.commitOne();
      awaitOlderThanTheDelay(b);
      assertThat(consumer.pollOnce()).isEmpty();
      txR.rollback();
    }

    await().atMost(PATIENCE).until(() -> consumer.drain().contains(b));

    assertThat(consumer.delivered).containsExactly(b).doesNotContain(r);
    assertThat(consumer.pollOnce()).isEmpty();
  }

  @Test
  void writerRollingBackASavepoint_losesOnlyThatEvent() throws SQLException {
    Consumer consumer = new Consumer();
    long kept;
    long undone;
    try (Connection tx = f.ds.getConnection()) {
      tx.setAutoCommit(false);
      kept = f.insertOne(tx);
      java.sql.Savepoint sp = tx.setSavepoint();
      undone = f.insertOne(tx);
      tx.rollback(sp);
      tx.commit();
    }

    await().atMost(PATIENCE).until(() -> consumer.drain().contains(kept));

    assertThat(consumer.delivered).containsExactly(kept).doesNotContain(undone);
  }

  private static void awaitOlderThanTheDelay(long eventId) {
    await()
        .atMost(PATIENCE)
        .pollInterval(Duration.ofMillis(50))
        .until(() -> f.ageMillis(eventId) > DELAY.toMillis() + 50);
  }

  /** A polling consumer that records what it delivered, in order. */
  private static final class Consumer {
    final List<Long> delivered = new ArrayList<>();
    FeedCursor cursor = FeedCursor.beginning();

    /** One poll; what it delivered. */
    List<Long> pollOnce() {
      ReclaimEventPage page = feed.pollReclaimEvents(cursor, 100);
      cursor = page.cursor();
      List<Long> ids = FeedFixture.ids(page.events());
      delivered.addAll(ids);
      return ids;
    }

    /** Polls until a page comes back empty; everything delivered so far. */
    List<Long> drain() {
      while (!pollOnce().isEmpty()) {
        // keep reading
      }
      return delivered;
    }
  }
}
