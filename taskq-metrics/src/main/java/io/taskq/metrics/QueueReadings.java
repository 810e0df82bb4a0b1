package io.taskq.metrics;

import java.util.Collection;

/**
 * Reads every queue's backlog once: the source a {@link QueueSampler} polls.
 *
 * <p>The PostgreSQL store provides the real one (a bounded query under its own statement timeout);
 * the metrics module only needs the readings. A queue missing from a successful read has no pending
 * jobs.
 */
@FunctionalInterface
public interface QueueReadings {
  /**
   * The current readings, at most one per queue.
   *
   * @return the readings, at most one per queue
   * @throws Exception when the read failed or timed out; the sampler counts it under {@code
   *     taskq.maintenance_leader.sweep_timeouts{sweep_name}} with its own name and keeps the last
   *     values
   */
  Collection<QueueReading> read() throws Exception;
}
