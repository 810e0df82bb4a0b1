package io.taskq.postgres.internal.maintenance;

import io.taskq.TaskQConfig;
import java.time.Duration;
import java.util.Objects;

/**
 * The knobs the maintenance component reads (guide §3; T1 names the variables). An immutable value
 * built with {@link #builder()}; each setter checks its argument at once and names it.
 *
 * @param eventWriterBatchSize {@code TASKQ_EVENT_WRITER_BATCH_SIZE}: rows per arm of an S1-S3
 *     batch; default 100, 1..10 000
 * @param eventWriterStatementTimeout {@code TASKQ_EVENT_WRITER_STATEMENT_TIMEOUT_MS}: the server
 *     timeout of each batch; default 1750 ms
 * @param reducedBatchDivisor {@code TASKQ_EVENT_WRITER_REDUCED_BATCH_DIVISOR}: default 4, at least
 *     1
 * @param breakerFailureThreshold {@code TASKQ_SWEEP_BREAKER_FAILURE_THRESHOLD}: default 3, at least
 *     1
 * @param breakerWindow {@code TASKQ_SWEEP_BREAKER_WINDOW_SECS}: default 600 s, positive
 * @param sweepDrainBatches {@code TASKQ_SWEEP_DRAIN_BATCHES}: batches per sweep per tick; default
 *     8, at least 1
 * @param sweepInterval {@code TASKQ_SWEEP_INTERVAL}: the sweep loop's period; default 30 s,
 *     positive
 * @param scheduledTick the 1-second loop's period (S3); default 1 s, positive
 * @param maxRetryBackoff {@code max_retry_backoff}: the cap on reclaim reschedules; default 1 h
 * @param workerStaleAfter {@code TASKQ_WORKER_STALE_AFTER}: the heartbeat arm's bound; default 60 s
 * @param leaderCheckTimeout the bound on each statement on the leader's dedicated connection;
 *     default 5 s ({@code dispatcher_command_timeout})
 * @param fenceBarrierTimeout how long a new leader waits for the previous leader's batches; default
 *     10 s
 * @param retryAttempts attempts of one batch on transient errors before the loop gives up on it for
 *     the tick; default 3, at least 1
 * @param retryBackoff the first backoff between attempts (doubling, with jitter); default 250 ms
 * @param sweeps the knobs only the S4-S11 rows of the {@link SweepCatalog} read; default the knob
 *     catalog's
 */
public record MaintenanceSettings(
    int eventWriterBatchSize,
    Duration eventWriterStatementTimeout,
    int reducedBatchDivisor,
    int breakerFailureThreshold,
    Duration breakerWindow,
    int sweepDrainBatches,
    Duration sweepInterval,
    Duration scheduledTick,
    Duration maxRetryBackoff,
    Duration workerStaleAfter,
    Duration leaderCheckTimeout,
    Duration fenceBarrierTimeout,
    int retryAttempts,
    Duration retryBackoff,
    SweepKnobs sweeps) {

  /** Checks every value; see the record description for the ranges. */
  public MaintenanceSettings {
    between(eventWriterBatchSize, 1, 10_000, "eventWriterBatchSize");
    positive(eventWriterStatementTimeout, "eventWriterStatementTimeout");
    between(reducedBatchDivisor, 1, Integer.MAX_VALUE, "reducedBatchDivisor");
    between(breakerFailureThreshold, 1, Integer.MAX_VALUE, "breakerFailureThreshold");
    positive(breakerWindow, "breakerWindow");
    between(sweepDrainBatches, 1, Integer.MAX_VALUE, "sweepDrainBatches");
    positive(sweepInterval, "sweepInterval");
    positive(scheduledTick, "scheduledTick");
    positive(maxRetryBackoff, "maxRetryBackoff");
    positive(workerStaleAfter, "workerStaleAfter");
    positive(leaderCheckTimeout, "leaderCheckTimeout");
    positive(fenceBarrierTimeout, "fenceBarrierTimeout");
    between(retryAttempts, 1, 100, "retryAttempts");
    positive(retryBackoff, "retryBackoff");
    Objects.requireNonNull(sweeps, "sweeps");
  }

  /**
   * The maintenance knobs of {@code config}; the settings TaskQConfig has no knob for (the 1-second
   * tick, the barrier wait, the batch retry) keep their defaults. The leader's statement bound is
   * {@code dispatcher_command_timeout}.
   */
  public static MaintenanceSettings from(TaskQConfig config) {
    return builder()
        .eventWriterBatchSize(config.eventWriterBatchSize())
        .eventWriterStatementTimeout(config.eventWriterStatementTimeout())
        .reducedBatchDivisor(config.eventWriterReducedBatchDivisor())
        .breakerFailureThreshold(config.sweepBreakerFailureThreshold())
        .breakerWindow(config.sweepBreakerWindow())
        .sweepDrainBatches(config.sweepDrainBatches())
        .sweepInterval(config.sweepInterval())
        .maxRetryBackoff(config.maxRetryBackoff())
        .workerStaleAfter(config.workerStaleAfter())
        .leaderCheckTimeout(config.dispatcherCommandTimeout())
        .sweeps(SweepKnobs.from(config))
        .build();
  }

  /** The defaults of the guide. */
  public static MaintenanceSettings defaults() {
    return builder().build();
  }

  /** A builder starting from the defaults. */
  public static MaintenanceSettingsBuilder builder() {
    return new MaintenanceSettingsBuilder();
  }

  /** A builder starting from these values. */
  public MaintenanceSettingsBuilder toBuilder() {
    return new MaintenanceSettingsBuilder(this);
  }

  /** Refuses {@code value} outside {@code [min, max]}, naming it {@code name}. */
  static void between(int value, int min, int max, String name) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(
          name + " must be between " + min + " and " + max + ", was " + value);
    }
  }

  /** Refuses a zero or negative {@code value}, naming it {@code name}. */
  static void positive(Duration value, String name) {
    if (value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " must be positive, was " + value);
    }
  }
}
