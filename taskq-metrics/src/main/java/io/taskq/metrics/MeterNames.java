package io.taskq.metrics;

/**
 * The names of every meter {@link TaskQMetrics} registers, in Micrometer's dotted form.
 *
 * <p>These names are normative: operators' dashboards, the alert rules in {@code
 * docs/prometheus/taskq-rules.yml} and the runbooks depend on them, so a rename is a breaking
 * change (and {@code docs/observability.md} must change with it). Prometheus renders dots as
 * underscores and appends {@code _total} to counters and {@code _seconds} to timers and gauges with
 * a seconds base unit.
 */
public final class MeterNames {
  /** Counter {@code {sweep_name}}: aborted sweep batches and failed gauge reads (O1). */
  public static final String SWEEP_TIMEOUTS = "taskq.maintenance_leader.sweep_timeouts";

  /** Gauge {@code {sweep_name}}: the batch size a sweep runs with now (O2). */
  public static final String SWEEP_BATCH_SIZE = "taskq.maintenance_leader.sweep_batch_size";

  /**
   * Gauge {@code {sweep_name}}: the configured batch size, label-matched with the used one (O2).
   */
  public static final String SWEEP_BATCH_SIZE_CONFIGURED =
      "taskq.maintenance_leader.sweep_batch_size_configured";

  /** Gauge {@code {sweep_name}}: epoch seconds of the sweep's last committed batch (O3). */
  public static final String SWEEP_LAST_SUCCESS_SECONDS =
      "taskq.maintenance_leader.sweep_last_success_seconds";

  /** Distribution summary {@code {sweep_name}}: rows per committed batch (O4). */
  public static final String SWEEP_ROWS = "taskq.maintenance_leader.sweep_rows";

  /** Timer {@code {sweep_name, outcome}}: batch duration, committed or aborted (O4). */
  public static final String SWEEP_DURATION = "taskq.maintenance_leader.sweep_duration";

  /** Gauge: 1 while this process is its schema's maintenance leader, else 0 (O6). */
  public static final String IS_LEADER = "taskq.maintenance_leader.is_leader";

  /** Counter: times this process gained or lost the maintenance leadership. */
  public static final String LEADER_CHANGES = "taskq.maintenance_leader.leader_changes";

  /** Counter {@code {actor, disposition}}: jobs the lease-reclaim sweep reclaimed (O5). */
  public static final String JOBS_RECLAIMED = "taskq.jobs.reclaimed";

  /**
   * Counter {@code {actor, queue}}: claimed jobs handed back to wait by their actor's rate limit
   * (R6: counted here, never written to {@code job_events}).
   */
  public static final String JOBS_RATE_LIMITED = "taskq.jobs.rate_limited";

  /**
   * Counter: worker writes about an attempt that the lease fence turned away (D9, R6); the guide
   * names no meter for it, so this name is TaskQ's own.
   */
  public static final String JOBS_FENCED_WRITES = "taskq.jobs.fenced_writes";

  /** Counter {@code {actor, queue}}: jobs enqueued. */
  public static final String JOBS_ENQUEUED = "taskq.jobs.enqueued";

  /** Counter {@code {actor, queue}}: jobs claimed by a worker of this process. */
  public static final String JOBS_STARTED = "taskq.jobs.started";

  /** Counter {@code {actor, queue}}: jobs that returned successfully. */
  public static final String JOBS_SUCCEEDED = "taskq.jobs.succeeded";

  /** Counter {@code {actor, queue}}: job executions that threw or timed out. */
  public static final String JOBS_FAILED = "taskq.jobs.failed";

  /** Timer {@code {actor, queue, outcome}}: how long job executions ran. */
  public static final String JOBS_EXECUTION = "taskq.jobs.execution";

  /** Timer {@code {actor, queue}}: from runnable to claimed. */
  public static final String JOBS_PICKUP_LATENCY = "taskq.jobs.pickup_latency";

  /** Gauge {@code {queue}}: pending jobs, as the last successful sampler read saw them. */
  public static final String QUEUE_DEPTH = "taskq.queue.depth";

  /** Gauge {@code {queue}}, seconds: age of the oldest runnable pending job. */
  public static final String QUEUE_OLDEST_PENDING_AGE = "taskq.queue.oldest_pending_age";

  /**
   * Gauge {@code {sweep_name}}: rows a leader sweep would act on now, counted up to 10 000 (O1
   * backlog detection).
   */
  public static final String SWEEP_BACKLOG = "taskq.maintenance_leader.sweep_backlog";

  /** Gauge {@code {actor}}: the actor's pending jobs (O1 per-actor backlog). */
  public static final String ACTOR_DEPTH = "taskq.actor.depth";

  /** Gauge {@code {actor}}, seconds: age of the actor's oldest runnable pending job (O1). */
  public static final String ACTOR_OLDEST_PENDING_AGE = "taskq.actor.oldest_pending_age";

  /** Gauge {@code {kind, name}}: concurrency-cap reservation slots held now (O1, L7). */
  public static final String RESERVATION_SLOTS_HELD = "taskq.reservation_slots.held";

  /** Gauge {@code {kind, name}}: a concurrency cap's slots, its cap (O1, L7). */
  public static final String RESERVATION_SLOTS_CAPACITY = "taskq.reservation_slots.capacity";

  /** Gauge, seconds: age of the newest event the reclaim-event feed's last poll delivered. */
  public static final String EVENT_FEED_LAG = "taskq.events.feed_lag";

  /** Gauge, tags {@code kind} and {@code name}: 1 while an operator's pause holds (A4), else 0. */
  public static final String PAUSED = "taskq.paused";

  /** Gauge: committed reclaim events held back by an older running transaction (D12). */
  public static final String EVENT_FEED_HELD_BACK = "taskq.events.feed_held_back";

  /** Gauge, seconds: how long the oldest held-back reclaim event has waited (D12). */
  public static final String EVENT_FEED_HELD_BACK_AGE = "taskq.events.feed_held_back_age";

  /** Gauge, seconds: age of the running transaction holding the feed back (D12). */
  public static final String EVENT_FEED_OLDEST_TRANSACTION_AGE =
      "taskq.events.oldest_transaction_age";

  private MeterNames() {}
}
