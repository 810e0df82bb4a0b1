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
  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from these values. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  private static void between(int value, int min, int max, String name) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(
          name + " must be between " + min + " and " + max + ", was " + value);
    }
  }

  private static void positive(Duration value, String name) {
    if (value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " must be positive, was " + value);
    }
  }

  /** Builds {@link MaintenanceSettings}; starts from the defaults. */
  public static final class Builder {
    private int eventWriterBatchSize = 100;
    private Duration eventWriterStatementTimeout = Duration.ofMillis(1750);
    private int reducedBatchDivisor = 4;
    private int breakerFailureThreshold = 3;
    private Duration breakerWindow = Duration.ofMinutes(10);
    private int sweepDrainBatches = 8;
    private Duration sweepInterval = Duration.ofSeconds(30);
    private Duration scheduledTick = Duration.ofSeconds(1);
    private Duration maxRetryBackoff = Duration.ofHours(1);
    private Duration workerStaleAfter = Duration.ofSeconds(60);
    private Duration leaderCheckTimeout = Duration.ofSeconds(5);
    private Duration fenceBarrierTimeout = Duration.ofSeconds(10);
    private int retryAttempts = 3;
    private Duration retryBackoff = Duration.ofMillis(250);
    private SweepKnobs sweeps = SweepKnobs.defaults();

    private Builder() {}

    private Builder(MaintenanceSettings s) {
      eventWriterBatchSize = s.eventWriterBatchSize;
      eventWriterStatementTimeout = s.eventWriterStatementTimeout;
      reducedBatchDivisor = s.reducedBatchDivisor;
      breakerFailureThreshold = s.breakerFailureThreshold;
      breakerWindow = s.breakerWindow;
      sweepDrainBatches = s.sweepDrainBatches;
      sweepInterval = s.sweepInterval;
      scheduledTick = s.scheduledTick;
      maxRetryBackoff = s.maxRetryBackoff;
      workerStaleAfter = s.workerStaleAfter;
      leaderCheckTimeout = s.leaderCheckTimeout;
      fenceBarrierTimeout = s.fenceBarrierTimeout;
      retryAttempts = s.retryAttempts;
      retryBackoff = s.retryBackoff;
      sweeps = s.sweeps;
    }

    public Builder eventWriterBatchSize(int value) {
      between(value, 1, 10_000, "eventWriterBatchSize");
      eventWriterBatchSize = value;
      return this;
    }

    public Builder eventWriterStatementTimeout(Duration value) {
      positive(value, "eventWriterStatementTimeout");
      eventWriterStatementTimeout = value;
      return this;
    }

    public Builder reducedBatchDivisor(int value) {
      between(value, 1, Integer.MAX_VALUE, "reducedBatchDivisor");
      reducedBatchDivisor = value;
      return this;
    }

    public Builder breakerFailureThreshold(int value) {
      between(value, 1, Integer.MAX_VALUE, "breakerFailureThreshold");
      breakerFailureThreshold = value;
      return this;
    }

    public Builder breakerWindow(Duration value) {
      positive(value, "breakerWindow");
      breakerWindow = value;
      return this;
    }

    public Builder sweepDrainBatches(int value) {
      between(value, 1, Integer.MAX_VALUE, "sweepDrainBatches");
      sweepDrainBatches = value;
      return this;
    }

    public Builder sweepInterval(Duration value) {
      positive(value, "sweepInterval");
      sweepInterval = value;
      return this;
    }

    public Builder scheduledTick(Duration value) {
      positive(value, "scheduledTick");
      scheduledTick = value;
      return this;
    }

    public Builder maxRetryBackoff(Duration value) {
      positive(value, "maxRetryBackoff");
      maxRetryBackoff = value;
      return this;
    }

    public Builder workerStaleAfter(Duration value) {
      positive(value, "workerStaleAfter");
      workerStaleAfter = value;
      return this;
    }

    public Builder leaderCheckTimeout(Duration value) {
      positive(value, "leaderCheckTimeout");
      leaderCheckTimeout = value;
      return this;
    }

    public Builder fenceBarrierTimeout(Duration value) {
      positive(value, "fenceBarrierTimeout");
      fenceBarrierTimeout = value;
      return this;
    }

    public Builder retryAttempts(int value) {
      between(value, 1, 100, "retryAttempts");
      retryAttempts = value;
      return this;
    }

    public Builder retryBackoff(Duration value) {
      positive(value, "retryBackoff");
      retryBackoff = value;
      return this;
    }

    /** The knobs of the S4-S11 sweeps. */
    public Builder sweeps(SweepKnobs value) {
      sweeps = Objects.requireNonNull(value, "sweeps");
      return this;
    }

    public MaintenanceSettings build() {
      return new MaintenanceSettings(
          eventWriterBatchSize,
          eventWriterStatementTimeout,
          reducedBatchDivisor,
          breakerFailureThreshold,
          breakerWindow,
          sweepDrainBatches,
          sweepInterval,
          scheduledTick,
          maxRetryBackoff,
          workerStaleAfter,
          leaderCheckTimeout,
          fenceBarrierTimeout,
          retryAttempts,
          retryBackoff,
          sweeps);
    }
  }
}
