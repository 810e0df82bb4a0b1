package io.taskq.spi;

import java.time.Duration;

/**
 * Receives the job lifecycle signals of one process: enqueues, pickups and finishes, plus the lag
 * of the reclaim-event feed consumer.
 *
 * <p>The sibling of {@link MaintenanceListener} for the worker side: every method has a no-op
 * default and maps 1:1 to one meter of the metrics binding (the names in the method docs). The
 * arguments are bounded labels only (actor and queue names come from the application's
 * registrations); a job or worker id never reaches a listener, so a binding cannot leak one into a
 * label.
 *
 * <p><b>Threading.</b> Called from enqueueing threads and from every worker thread at once, so
 * implementations must be thread-safe, quick, and must not throw: an exception is logged and
 * dropped, never allowed to fail an enqueue or a job.
 */
public interface JobListener {
  /** A listener that records nothing. */
  JobListener NONE = new JobListener() {};

  /**
   * {@code count} jobs of {@code actor} were enqueued on {@code queue} (one call per enqueue
   * statement, after it committed). Maps to the counter {@code taskq.jobs.enqueued{actor, queue}}.
   *
   * @param actor the jobs' actor
   * @param queue the queue they were enqueued on
   * @param count the jobs the statement enqueued
   */
  default void jobsEnqueued(String actor, String queue, int count) {}

  /**
   * A worker claimed a job of {@code actor} from {@code queue} and starts executing it; {@code
   * pickupLatency} is the time from when the job became runnable (its scheduled time, or its
   * enqueue time) to the claim. Maps to the counter {@code taskq.jobs.started{actor, queue}} and
   * the timer {@code taskq.jobs.pickup_latency{actor, queue}}.
   *
   * @param actor the job's actor
   * @param queue the queue it was claimed from
   * @param pickupLatency the time from runnable to claimed
   */
  default void jobStarted(String actor, String queue, Duration pickupLatency) {}

  /**
   * A job of {@code actor} on {@code queue} returned successfully after executing for {@code
   * execution}. Maps to the counter {@code taskq.jobs.succeeded{actor, queue}} and the timer {@code
   * taskq.jobs.execution{actor, queue, outcome="succeeded"}}.
   *
   * @param actor the job's actor
   * @param queue the job's queue
   * @param execution how long the attempt ran
   */
  default void jobSucceeded(String actor, String queue, Duration execution) {}

  /**
   * A job of {@code actor} on {@code queue} threw (or timed out) after executing for {@code
   * execution}, whether or not it will be retried. Maps to the counter {@code
   * taskq.jobs.failed{actor, queue}} and the timer {@code taskq.jobs.execution{actor, queue,
   * outcome="failed"}}.
   *
   * @param actor the job's actor
   * @param queue the job's queue
   * @param execution how long the attempt ran
   */
  default void jobFailed(String actor, String queue, Duration execution) {}

  /**
   * A claimed job of {@code actor} on {@code queue} went back to wait, its attempt given back,
   * because its actor's rate limit refused a permit (or the limiter could not decide). Maps to the
   * counter {@code taskq.jobs.rate_limited{actor, queue}}. A refusal writes no {@code job_events}
   * row (R6): under a sustained limit, one row per refusal would grow without bound.
   *
   * @param actor the job's actor
   * @param queue the job's queue
   */
  default void jobRateLimited(String actor, String queue) {}

  /**
   * A worker's write about an attempt (recording its outcome, renewing or releasing its lease,
   * handing a rate-limited job back) changed nothing because the attempt's lease was taken over
   * (D9): the worker was paused or cut off past its lease and the job was reclaimed. Maps to the
   * counter {@code taskq.jobs.fenced_writes} (R6); a steady rate means leases are too short for
   * this deployment, or workers freeze.
   */
  default void writeFenced() {}

  /**
   * A poll of the reclaim-event feed returned; {@code lag} is the age of the newest event it
   * delivered (zero when the feed is caught up). Maps to the gauge {@code taskq.events.feed_lag}
   * (seconds).
   *
   * @param lag the age of the newest event delivered; zero when caught up
   */
  default void eventFeedLag(Duration lag) {}
}
