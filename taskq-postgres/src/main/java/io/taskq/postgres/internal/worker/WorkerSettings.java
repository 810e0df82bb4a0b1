package io.taskq.postgres.internal.worker;

import io.taskq.Actor;
import io.taskq.SchemaName;
import io.taskq.TaskQConfig;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The knobs one worker runs with, resolved and checked.
 *
 * <p>The public configuration maps onto this record; the worker's classes read only this, so they
 * do not care where a value came from (code, environment, defaults). Every component is checked
 * when the record is made, with a message naming the knob, the bad value and the allowed range.
 *
 * @param schema the schema the worker's tables live in
 * @param concurrency handler slots: jobs running at once, 1 to 10 000
 * @param queues the queues to claim from, at least one
 * @param claimBatchSize most jobs one claim statement takes, 1 to 1 000
 * @param leasePeriod how long a claim or a heartbeat keeps a job's lease, 1 s to 1 day
 * @param heartbeatInterval time between heartbeats, 10 ms up to less than the lease period
 * @param pollInterval the polling fallback when no notification arrives, 10 ms to 1 hour
 * @param shutdownGrace how long {@code close()} waits for running handlers, 0 to 1 hour
 * @param resultTtl how long a stored result lives; 0 stores no result; 0 to 3650 days
 * @param maxRetryBackoff ceiling on any retry delay (deployment-wide), 1 ms to 3650 days
 * @param claimGather how long the dispatcher waits for more free slots before claiming fewer than a
 *     full batch while handlers are busy, 0 to 1 s
 * @param completionBatchSize most outcomes one completion statement records, 1 to 10 000
 * @param completionLinger how long the completer waits for a fuller batch (up to the handler slot
 *     count) before recording fewer outcomes, 0 to 1 s
 */
public record WorkerSettings(
    SchemaName schema,
    int concurrency,
    List<String> queues,
    int claimBatchSize,
    Duration leasePeriod,
    Duration heartbeatInterval,
    Duration pollInterval,
    Duration shutdownGrace,
    Duration resultTtl,
    Duration maxRetryBackoff,
    Duration claimGather,
    int completionBatchSize,
    Duration completionLinger) {
  /** How long a busy dispatcher waits for a fuller claim batch. */
  public static final Duration DEFAULT_CLAIM_GATHER = Duration.ofMillis(2);

  /** Most outcomes one completion statement records. */
  public static final int DEFAULT_COMPLETION_BATCH_SIZE = 500;

  /** How long the completer waits for a fuller batch. */
  public static final Duration DEFAULT_COMPLETION_LINGER = Duration.ofMillis(2);

  private static final Duration TEN_YEARS = Duration.ofDays(3650);

  public WorkerSettings {
    Objects.requireNonNull(schema, "schema");
    queues = List.copyOf(queues);
    queues.forEach(q -> Actor.checkName("queue", q));
    if (queues.isEmpty()) {
      throw new IllegalArgumentException("queues must name at least one queue, was empty");
    }
    checkRange("concurrency", concurrency, 1, 10_000);
    checkRange("claimBatchSize", claimBatchSize, 1, 1_000);
    checkRange("completionBatchSize", completionBatchSize, 1, 10_000);
    checkRange("leasePeriod", leasePeriod, Duration.ofSeconds(1), Duration.ofDays(1));
    checkRange(
        "heartbeatInterval", heartbeatInterval, Duration.ofMillis(10), leasePeriod.minusMillis(1));
    checkRange("pollInterval", pollInterval, Duration.ofMillis(10), Duration.ofHours(1));
    checkRange("shutdownGrace", shutdownGrace, Duration.ZERO, Duration.ofHours(1));
    checkRange("resultTtl", resultTtl, Duration.ZERO, TEN_YEARS);
    checkRange("maxRetryBackoff", maxRetryBackoff, Duration.ofMillis(1), TEN_YEARS);
    checkRange("claimGather", claimGather, Duration.ZERO, Duration.ofSeconds(1));
    checkRange("completionLinger", completionLinger, Duration.ZERO, Duration.ofSeconds(1));
  }

  /**
   * The worker settings of {@code config} for {@code actors}: the queues served are the configured
   * worker queues plus the queue of every registered actor (registering an actor means this process
   * runs its jobs).
   */
  public static WorkerSettings of(TaskQConfig config, Collection<Actor<?>> actors) {
    Set<String> queues = new TreeSet<>(config.workerQueues());
    actors.forEach(a -> queues.add(a.queue()));
    return new WorkerSettings(
        config.schemaName(),
        config.workerConcurrency(),
        List.copyOf(queues),
        config.claimBatchSize(),
        config.leasePeriod(),
        config.heartbeatInterval(),
        config.pollInterval(),
        config.shutdownGrace(),
        config.resultTtl(),
        config.maxRetryBackoff(),
        DEFAULT_CLAIM_GATHER,
        DEFAULT_COMPLETION_BATCH_SIZE,
        DEFAULT_COMPLETION_LINGER);
  }

  private static void checkRange(String knob, int value, int min, int max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(
          knob + " must be in [" + min + ", " + max + "], was " + value);
    }
  }

  private static void checkRange(String knob, Duration value, Duration min, Duration max) {
    Objects.requireNonNull(value, knob);
    if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
      throw new IllegalArgumentException(
          knob + " must be in [" + min + ", " + max + "], was " + value);
    }
  }
}
