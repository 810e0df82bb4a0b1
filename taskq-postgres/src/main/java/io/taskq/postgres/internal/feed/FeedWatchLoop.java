package io.taskq.postgres.internal.feed;

import io.taskq.postgres.internal.Backoff;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The loop behind a reclaim watch (E2, D11): poll a page, hand each row to the consumer in order,
 * then wait for a notification on the events channel or the poll interval, whichever comes first.
 *
 * <p>Design note. The cursor moves only after the consumer returned from a row, so a row is handed
 * over once per watch, in feed order, and a consumer that throws leaves the cursor on the row
 * before the failing one. Notifications only shorten the wait: the loop polls after every
 * (re)connect (notifications sent while it was away are lost), whenever a page came back full, when
 * the first row held back by the visibility delay ripens, soon (with backoff) while committed rows
 * wait behind an older running transaction (whose end nobody notifies), and at least every poll
 * interval.
 *
 * <p>Failures split in two. A database failure of a poll or of the listen session is transient: the
 * loop retries with backoff (100 ms doubling to 5 s) for as long as it runs, and keeps polling
 * while the listen session is down. Anything else ends the watch loudly: a retention gap from the
 * page source, or an exception from the consumer. The failure is kept for {@link #failure()} and
 * logged at ERROR; the cursor stays where it was.
 */
public final class FeedWatchLoop implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(FeedWatchLoop.class);
  private static final Duration BACKOFF_INITIAL = Duration.ofMillis(100);
  private static final Duration BACKOFF_MAX = Duration.ofSeconds(5);
  private static final Duration HELD_BACK_RETRY = Duration.ofMillis(10);

  /** Reads one page after a position; throws {@link SQLException} only for transient failures. */
  @FunctionalInterface
  public interface PageSource {
    FeedRead read(FeedPosition after, int limit) throws SQLException;
  }

  private final PageSource source;
  private final Consumer<FeedRow> consumer;
  private final EventsListener listener;
  private final FeedFaults faults;
  private final Duration pollInterval;
  private final int batchSize;
  private final Backoff listenBackoff = backoff();
  private final Backoff pollBackoff = backoff();
  private final Backoff heldBackBackoff;
  private final CountDownLatch stopSignal = new CountDownLatch(1);
  private final CountDownLatch terminated = new CountDownLatch(1);
  private final AtomicLong connects = new AtomicLong();
  private volatile FeedPosition position;
  private volatile boolean stopped;
  private volatile @Nullable Throwable failure;
  private long nextConnectAttempt = System.nanoTime();

  public FeedWatchLoop(
      PageSource source,
      Consumer<FeedRow> consumer,
      FeedPosition start,
      WatchSettings settings,
      FeedFaults faults) {
    this.source = source;
    this.consumer = consumer;
    this.position = start;
    this.pollInterval = settings.pollInterval();
    this.batchSize = settings.batchSize();
    this.heldBackBackoff = new Backoff(HELD_BACK_RETRY, pollInterval);
    this.faults = faults;
    this.listener =
        new EventsListener(
            settings.listenSource(),
            settings.quotedChannel(),
            settings.applicationName(),
            faults.listen());
  }

  @Override
  public void run() {
    try {
      while (!stopped) {
        step();
      }
    } catch (RuntimeException e) {
      end(e);
    } catch (Error e) {
      end(e);
      throw e;
    } finally {
      listener.close();
      terminated.countDown();
    }
  }

  private void end(Throwable e) {
    failure = e;
    LOG.error("reclaim watch ended at cursor {}: {}", position, e.toString(), e);
  }

  private void step() {
    listenWhenDue();
    FeedRead read;
    try {
      faults.poll().check();
      read = source.read(position, batchSize);
    } catch (SQLException e) {
      Duration wait = pollBackoff.next();
      log("poll", pollBackoff, wait, e);
      pause(wait);
      return;
    }
    if (pollBackoff.failures() > 0) {
      LOG.info("reclaim watch polls again after {} failures", pollBackoff.failures());
      pollBackoff.reset();
    }
    deliver(read);
    if (!read.full()) {
      awaitWake(nextPollIn(read));
    }
  }

  /**
   * The poll interval, or sooner: when the first row held back by the visibility delay ripens, and
   * while committed rows wait behind an older transaction, after a backoff that starts at 10 ms and
   * doubles up to the poll interval (a short transaction ends soon, a long one costs few polls).
   */
  private Duration nextPollIn(FeedRead read) {
    Duration wait = pollInterval;
    Duration ripensIn = read.ripensIn();
    if (ripensIn != null && ripensIn.compareTo(wait) < 0) {
      wait = ripensIn;
    }
    if (!read.heldBack()) {
      heldBackBackoff.reset();
      return wait;
    }
    Duration retry = heldBackBackoff.next();
    return retry.compareTo(wait) < 0 ? retry : wait;
  }

  private void deliver(FeedRead read) {
    for (FeedRow row : read.rows()) {
      if (stopped) {
        return;
      }
      consumer.accept(row);
      position = row.position();
    }
  }

  private void listenWhenDue() {
    if (listener.isOpen() || System.nanoTime() - nextConnectAttempt < 0) {
      return;
    }
    try {
      listener.open();
      connects.incrementAndGet();
      if (listenBackoff.failures() > 0) {
        LOG.info("reclaim watch listens again after {} failures", listenBackoff.failures());
      }
      listenBackoff.reset();
    } catch (SQLException e) {
      Duration wait = listenBackoff.next();
      log("listen connection", listenBackoff, wait, e);
      nextConnectAttempt = System.nanoTime() + wait.toNanos();
    }
  }

  private void awaitWake(Duration timeout) {
    if (!listener.isOpen()) {
      long untilConnect = Math.max(0, nextConnectAttempt - System.nanoTime());
      pause(Duration.ofNanos(Math.min(untilConnect, timeout.toNanos())));
      return;
    }
    try {
      listener.await(timeout, () -> stopped);
    } catch (SQLException e) {
      Duration wait = listenBackoff.next();
      log("listen connection", listenBackoff, wait, e);
      nextConnectAttempt = System.nanoTime() + wait.toNanos();
    }
  }

  private static void log(String what, Backoff backoff, Duration wait, SQLException e) {
    if (backoff.failures() == 1) {
      LOG.warn(
          "reclaim watch {} failed (SQLSTATE {}); retrying in {} ms while it fails: {}",
          what,
          e.getSQLState(),
          wait.toMillis(),
          e.toString());
    } else {
      LOG.debug(
          "reclaim watch {} failed again, retry in {} ms: {}", what, wait.toMillis(), e.toString());
    }
  }

  private void pause(Duration wait) {
    try {
      stopSignal.await(wait.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stopped = true;
    }
  }

  private static Backoff backoff() {
    return new Backoff(BACKOFF_INITIAL, BACKOFF_MAX);
  }

  /** Asks the loop to end after the row being delivered; it does within a tenth of a second. */
  public void stop() {
    stopped = true;
    stopSignal.countDown();
  }

  /** Waits for the loop to end; whether it did within {@code timeout}. */
  public boolean awaitTermination(Duration timeout) throws InterruptedException {
    return terminated.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
  }

  public boolean isTerminated() {
    return terminated.getCount() == 0;
  }

  /** The position after the last row the consumer returned from. */
  public FeedPosition position() {
    return position;
  }

  /** Why the loop ended on its own: a retention gap or the consumer's exception; else null. */
  public @Nullable Throwable failure() {
    return failure;
  }

  /** Successful (re)connects of the listen session so far. */
  public long connects() {
    return connects.get();
  }
}
