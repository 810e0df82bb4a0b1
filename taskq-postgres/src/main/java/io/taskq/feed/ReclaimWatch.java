package io.taskq.feed;

import io.taskq.postgres.internal.feed.FeedWatchLoop;
import java.time.Duration;
import java.util.Optional;

/**
 * A running {@link ReclaimEventFeed#watchReclaims(FeedCursor, java.util.function.Consumer) watch}:
 * one thread delivering the feed's events to a consumer, in order, each once.
 *
 * <p>The watch runs until {@link #stop()} / {@link #close()}, or until it ends on its own, loudly:
 * with an {@link EventRetentionGapException} when the retention sweep pruned past its cursor, or
 * with the consumer's exception. Either is logged at ERROR and kept in {@link #failure()}; the
 * {@link #cursor()} then still stands before the first event not handled. A database outage does
 * not end it: it retries with backoff and catches up.
 */
public final class ReclaimWatch implements AutoCloseable {
  private final FeedWatchLoop loop;

  ReclaimWatch(FeedWatchLoop loop) {
    this.loop = loop;
  }

  /**
   * {@return the cursor after the last event the consumer returned from} Store it (or the one of
   * each {@link ReclaimEvent#cursor() event}) to resume after a restart.
   */
  public FeedCursor cursor() {
    return new FeedCursor(loop.position());
  }

  /** {@return whether the watch thread still runs} */
  public boolean isRunning() {
    return !loop.isTerminated();
  }

  /**
   * {@return why the watch ended on its own (a retention gap or the consumer's exception); else
   * empty}
   */
  public Optional<Throwable> failure() {
    return Optional.ofNullable(loop.failure());
  }

  /**
   * Waits until the watch thread ended; whether it did within {@code timeout}.
   *
   * @param timeout the longest to wait
   * @return true when the thread ended within {@code timeout}
   * @throws InterruptedException when the waiting thread is interrupted
   */
  public boolean awaitTermination(Duration timeout) throws InterruptedException {
    return loop.awaitTermination(timeout);
  }

  /**
   * Asks the watch to end after the event being delivered, if any; returns at once. The watch
   * closes its listen session as it ends.
   */
  public void stop() {
    loop.stop();
  }

  /**
   * Stops the watch and waits for its thread to end (after the consumer returns from the event in
   * hand). An interrupt ends the wait and is kept on the thread.
   */
  @Override
  public void close() {
    loop.stop();
    try {
      loop.awaitTermination(Duration.ofDays(1));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Successful (re)connects of the listen session; for tests and diagnostics. */
  long listenConnects() {
    return loop.connects();
  }
}
