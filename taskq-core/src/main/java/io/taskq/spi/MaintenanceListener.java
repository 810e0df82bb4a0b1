package io.taskq.spi;

import java.time.Duration;
import java.time.Instant;
import java.util.Set;

/**
 * Receives the maintenance leader's signals (guide §3 "What degradation looks like", O1-O6).
 *
 * <p>Every method has a no-op default, so an implementation overrides only what it records, and new
 * signals can be added without breaking implementations. Each method maps 1:1 to one meter of the
 * metrics binding; the names in the method docs are normative (operators' dashboards and alerts
 * depend on them).
 *
 * <p><b>Threading.</b> Methods are called from TaskQ's maintenance threads, possibly two at once
 * (the sweep loop and the 1-second loop), so implementations must be thread-safe. They must be
 * quick and must not throw: an exception is logged and dropped, never allowed to stop a sweep.
 *
 * <p>Sweep names are the stable {@code sweep_name} labels, e.g. {@code reclaim_expired_locks},
 * {@code sweep_deadline_exceeded}, {@code scheduled_to_pending}.
 */
public interface MaintenanceListener {
  /** A listener that records nothing. */
  MaintenanceListener NONE = new MaintenanceListener() {};

  /**
   * The maintenance of this process started: {@code sweepNames} are every {@code sweep_name} it may
   * report (its sweeps and the cron tick), {@code actors} the actors it knows (registered, or
   * declared as known). Called once, before any other signal of the maintenance. A binding
   * registers its labelled counters at zero for each ({@code
   * taskq.maintenance_leader.sweep_timeouts{sweep_name}}, {@code taskq.jobs.reclaimed{actor,
   * disposition}}), so their series exist before their first event and Prometheus {@code absent()}
   * alerts stay armed (R6).
   *
   * @param sweepNames the {@code sweep_name} labels this maintenance may report
   * @param actors the actors this process knows
   */
  default void maintenanceStarted(Set<String> sweepNames, Set<String> actors) {}

  /**
   * A batch of {@code sweepName} committed, acting on {@code rows} rows (possibly 0). Maps to the
   * distribution {@code taskq.maintenance_leader.sweep_rows{sweep_name}} (O4). An aborted batch
   * records no row sample: nothing committed.
   *
   * @param sweepName the sweep's {@code sweep_name}
   * @param rows the rows the batch acted on
   */
  default void sweepRows(String sweepName, int rows) {}

  /**
   * A batch of {@code sweepName} ended after {@code duration}: committed ({@code aborted} false),
   * or aborted by its statement timeout ({@code aborted} true, SQLSTATE 57014 or a client timeout).
   * Maps to the timer {@code taskq.maintenance_leader.sweep_duration{sweep_name, aborted}} (O4).
   *
   * @param sweepName the sweep's {@code sweep_name}
   * @param duration how long the batch ran
   * @param aborted true when its timeout aborted it
   */
  default void sweepDuration(String sweepName, Duration duration, boolean aborted) {}

  /**
   * A batch of {@code sweepName} was aborted by its timeout and rolled back. Maps to the counter
   * {@code taskq.maintenance_leader.sweep_timeouts{sweep_name}} (O1): any sustained rate means
   * batches are being aborted, not completing slowly.
   *
   * @param sweepName the sweep's {@code sweep_name}
   */
  default void sweepTimeout(String sweepName) {}

  /**
   * The batch size {@code sweepName} runs with now ({@code used}) beside the configured size.
   * Called before every batch. Maps to the label-matched gauges {@code
   * taskq.maintenance_leader.sweep_batch_size{sweep_name}} and {@code
   * taskq.maintenance_leader.sweep_batch_size_configured{sweep_name}} (O2); {@code used <
   * configured} is the reduced tier of the breaker (T2).
   *
   * @param sweepName the sweep's {@code sweep_name}
   * @param used the batch size it runs with now
   * @param configured the configured batch size
   */
  default void sweepBatchSize(String sweepName, int used, int configured) {}

  /**
   * A batch of {@code sweepName} committed at {@code at}. Maps to the gauge {@code
   * taskq.maintenance_leader.sweep_last_success_seconds{sweep_name}} (O3, epoch seconds).
   *
   * @param sweepName the sweep's {@code sweep_name}
   * @param at when the batch committed
   */
  default void sweepSucceeded(String sweepName, Instant at) {}

  /**
   * This process became the maintenance leader of its schema ({@code true}) or stopped being it
   * ({@code false}). Maps to the gauge {@code taskq.maintenance_leader.is_leader} (1 or 0, O6), so
   * {@code sum(taskq_maintenance_leader_is_leader) != 1} is the split-brain alert.
   *
   * @param isLeader true when this process became the leader, false when it stopped being it
   */
  default void leaderChanged(boolean isLeader) {}

  /**
   * The lease-reclaim sweep (S1) reclaimed {@code count} jobs of {@code actor} with {@code
   * disposition} in one batch. Maps to the counter {@code taskq.jobs.reclaimed{actor, disposition}}
   * (O5), disposition one of {@code repended}, {@code crashed}, {@code cancelled}, or {@code
   * unknown} for a status no branch writes.
   *
   * @param actor the jobs' actor
   * @param disposition what became of them: {@code repended}, {@code crashed}, {@code cancelled} or
   *     {@code unknown}
   * @param count the jobs reclaimed in the batch
   */
  default void jobsReclaimed(String actor, String disposition, long count) {}
}
