package io.taskq.operations;

import java.time.Duration;
import java.util.Objects;

/**
 * One actor's backlog, from {@link Operations#actorBacklog()}: the source of the {@code
 * taskq.actor.depth} and {@code taskq.actor.oldest_pending_age} gauges (O1 per-actor backlog).
 *
 * @param actor the actor's name
 * @param depth its pending jobs (runnable or waiting for their run-at)
 * @param oldestPendingAge how long its oldest runnable pending job has waited since its run-at, by
 *     the database clock; zero when none is runnable
 */
public record ActorBacklog(String actor, long depth, Duration oldestPendingAge) {
  /**
   * Validates the reading.
   *
   * @param actor the actor's name
   * @param depth its pending jobs (runnable or waiting for their run-at)
   * @param oldestPendingAge how long its oldest runnable pending job has waited since its run-at,
   *     by the database clock; zero when none is runnable
   */
  public ActorBacklog {
    Objects.requireNonNull(actor, "actor");
    Objects.requireNonNull(oldestPendingAge, "oldestPendingAge");
  }
}
