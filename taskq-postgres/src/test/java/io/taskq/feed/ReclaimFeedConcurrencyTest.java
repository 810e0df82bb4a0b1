package io.taskq.feed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.taskq.JobRequest;
import io.taskq.JobsClient;
import io.taskq.TestHandles;
import io.taskq.bulk.CancelResult;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * E3: many concurrent writers and two consumers (a watch and a polling loop) for a sustained run;
 * every committed event is delivered to each consumer exactly once, in the feed's order.
 *
 * <p>Writers behave like the lease-reclaim sweep and cancels do, and worse: half of them take their
 * transaction id before drawing event ids (as S1's UPDATE does before its INSERT), they stall at
 * random between INSERT and COMMIT (within the visibility delay, the guide's assumption), some roll
 * back, and a canceller interleaves events of another kind. So event ids are drawn out of
 * transaction order, and rows commit out of event-id order, throughout the run.
 */
@TaskQTest(poolSize = 16)
@Tag("E3")
@Tag("E1")
@Tag("D12")
class ReclaimFeedConcurrencyTest {
  private static final int WRITERS = 8;
  private static final Duration RUN = Duration.ofSeconds(4);
  private static final Duration DELAY = Duration.ofMillis(200);

  @Test
  void concurrentWriters_everyCommittedEventIsDeliveredOnceInFeedOrder(TestServices services)
      throws Exception {
    FeedFixture f = new FeedFixture(services.dataSource(), services.schema()).migrate();
    ReclaimEventFeed feed =
        ReclaimEventFeed.builder(f.ds, f.schema)
            .visibilityDelay(DELAY)
            .pollInterval(Duration.ofMillis(250))
            .watchPageSize(50)
            .build();
    Set<Long> committed = ConcurrentHashMap.newKeySet();
    Set<Long> rolledBack = ConcurrentHashMap.newKeySet();
    List<Long> watched = new CopyOnWriteArrayList<>();
    List<Long> polled = new CopyOnWriteArrayList<>();
    AtomicBoolean polling = new AtomicBoolean(true);
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS + 2);
    try (ReclaimWatch watch =
        feed.watchReclaims(FeedCursor.beginning(), e -> watched.add(e.eventId()))) {
      List<Future<?>> writers = new ArrayList<>();
      long end = System.nanoTime() + RUN.toNanos();
      for (int i = 0; i < WRITERS; i++) {
        writers.add(pool.submit(() -> write(f, end, committed, rolledBack)));
      }
      writers.add(pool.submit(() -> cancel(f, end)));
      Future<?> poller = pool.submit(() -> poll(feed, polled, polling));
      for (Future<?> w : writers) {
        w.get(2, TimeUnit.MINUTES);
      }

      await()
          .atMost(Duration.ofSeconds(90))
          .failFast(
              "the polling consumer stopped early",
              () -> poller.isDone() && !caughtUp(polled, committed))
          .failFast("the watch stopped", () -> !watch.isRunning())
          .conditionEvaluationListener(
              c -> {
                if (c.getRemainingTimeInMS() < 1000) {
                  System.out.printf(
                      "committed %d, watched %d, polled %d, poller done %s, lag %s%n",
                      committed.size(), watched.size(), polled.size(), poller.isDone(), feed.lag());
                }
              })
          .until(() -> caughtUp(watched, committed) && caughtUp(polled, committed));
      polling.set(false);
      poller.get(1, TimeUnit.MINUTES);
      assertThat(watch.isRunning()).isTrue();
    } finally {
      pool.shutdownNow();
    }

    List<Long> order = f.feedOrder();
    assertThat(committed).hasSizeGreaterThan(100);
    assertThat(new HashSet<>(order)).isEqualTo(committed).doesNotContainAnyElementsOf(rolledBack);
    assertThat(watched).containsExactlyElementsOf(order);
    assertThat(polled).containsExactlyElementsOf(order);
  }

  private static boolean caughtUp(List<Long> delivered, Set<Long> committed) {
    return delivered.size() >= committed.size();
  }

  /** One writer: batches of reclaim events in transactions that stall, some rolled back. */
  private static Void write(FeedFixture f, long end, Set<Long> committed, Set<Long> rolledBack)
      throws SQLException, InterruptedException {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    try (Connection c = f.ds.getConnection()) {
      c.setAutoCommit(false);
      while (System.nanoTime() < end) {
        if (random.nextBoolean()) {
          FeedFixture.takeXid(c);
        }
        stall(random);
        List<Long> ids = f.insert(c, 1 + random.nextInt(5));
        stall(random);
        if (random.nextInt(10) == 0) {
          c.rollback();
          rolledBack.addAll(ids);
        } else {
          c.commit();
          committed.addAll(ids);
        }
      }
    }
    return null;
  }

  /** Cancels jobs as they are enqueued: events of another kind drawing from the same sequence. */
  private static Void cancel(FeedFixture f, long end) {
    JobsClient client = TestHandles.jobs(f.ds, f.schema);
    while (System.nanoTime() < end) {
      long id = client.enqueue(JobRequest.builder("mail").queue("q").build());
      assertThat(client.cancel(id)).isEqualTo(CancelResult.CANCELLED);
    }
    return null;
  }

  /** A consumer running its own loop with small pages, until told to stop. */
  private static Void poll(ReclaimEventFeed feed, List<Long> polled, AtomicBoolean polling) {
    FeedCursor cursor = FeedCursor.beginning();
    while (polling.get()) {
      ReclaimEventPage page = feed.pollReclaimEvents(cursor, 7);
      page.events().forEach(e -> polled.add(e.eventId()));
      cursor = page.cursor();
      if (page.events().isEmpty()) {
        feedWait();
      }
    }
    return null;
  }

  /** The stall under test: a writer holding its transaction open (well within the delay). */
  private static void stall(ThreadLocalRandom random) throws InterruptedException {
    Thread.sleep(random.nextInt(20));
  }

  /** The polling consumer's own pause between empty polls, a quarter of the delay. */
  private static void feedWait() {
    try {
      Thread.sleep(DELAY.toMillis() / 4);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
