package io.taskq.operations;

import io.taskq.TaskQ;
import java.time.Duration;
import java.util.Objects;

/**
 * One queue's backlog, from {@link TaskQ#queueBacklog()}: the source of the {@code
 * taskq.queue.depth} and {@code taskq.queue.oldest_pending_age} gauges.
 *
 * @param queue the queue name
 * @param depth pending jobs on the queue (runnable or waiting for their run-at)
 * @param oldestPendingAge how long the oldest runnable pending job has waited since its run-at, by
 *     the database clock; zero when none is runnable
 */
public record QueueBacklog(String queue, long depth, Duration oldestPendingAge) {
  /**
   * Validates the reading.
   *
   * @param depth pending jobs on the queue (runnable or waiting for their run-at)
   * @param oldestPendingAge how long the oldest runnable pending job has waited since its run-at,
   *     by the database clock; zero when none is runnable
   * @param queue the queue name
   */
  public QueueBacklog {
    Objects.requireNonNull(queue, "queue");
    Objects.requireNonNull(oldestPendingAge, "oldestPendingAge");
  }
}
