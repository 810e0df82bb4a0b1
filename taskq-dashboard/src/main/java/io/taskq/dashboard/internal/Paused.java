package io.taskq.dashboard.internal;

import io.taskq.operations.PauseTarget;
import java.util.Set;

/**
 * The stored pauses, as the {@link Inventory} reads them on every request.
 *
 * @param queues the paused queues ({@code *} for all)
 * @param actors the paused actors
 */
record Paused(Set<String> queues, Set<String> actors) {
  /** Whether {@code name}'s queue is paused, by name or through {@code *}. */
  boolean queue(String name) {
    return queues.contains(PauseTarget.ALL) || queues.contains(name);
  }

  /** Whether the actor {@code name} is paused. */
  boolean actor(String name) {
    return actors.contains(name);
  }
}
