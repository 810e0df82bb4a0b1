package io.taskq.metrics;

import java.time.Duration;
import java.util.Objects;

/**
 * One queue's backlog as a sampler read it.
 *
 * @param queue the queue name (a bounded label: queues are registered by the application)
 * @param depth pending jobs on the queue, not negative
 * @param oldestPendingAge how long the oldest runnable pending job has waited; zero when none
 */
public record QueueReading(String queue, long depth, Duration oldestPendingAge) {
  /**
   * Validates the reading.
   *
   * @param queue the queue name, not blank
   * @param depth pending jobs on the queue, not negative
   * @param oldestPendingAge how long the oldest runnable pending job has waited; zero when none
   * @throws IllegalArgumentException when {@code queue} is blank, {@code depth} is negative or
   *     {@code oldestPendingAge} is negative
   */
  public QueueReading {
    Objects.requireNonNull(queue, "queue");
    Objects.requireNonNull(oldestPendingAge, "oldestPendingAge");
    if (queue.isBlank()) {
      throw new IllegalArgumentException("queue must not be blank");
    }
    if (depth < 0) {
      throw new IllegalArgumentException("depth of queue " + queue + " must be >= 0, was " + depth);
    }
    if (oldestPendingAge.isNegative()) {
      throw new IllegalArgumentException(
          "oldestPendingAge of queue " + queue + " must be >= 0, was " + oldestPendingAge);
    }
  }
}
