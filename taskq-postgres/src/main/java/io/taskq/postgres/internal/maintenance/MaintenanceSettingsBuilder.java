package io.taskq.postgres.internal.maintenance;

import java.time.Duration;
import java.util.Objects;

/**
 * Builds {@link MaintenanceSettings}: starts from the defaults of the guide, or from given settings
 * ({@link MaintenanceSettings#toBuilder()}); each setter checks its argument at once and names it.
 */
public final class MaintenanceSettingsBuilder {
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

  MaintenanceSettingsBuilder() {}

  MaintenanceSettingsBuilder(MaintenanceSettings s) {
    eventWriterBatchSize = s.eventWriterBatchSize();
    eventWriterStatementTimeout = s.eventWriterStatementTimeout();
    reducedBatchDivisor = s.reducedBatchDivisor();
    breakerFailureThreshold = s.breakerFailureThreshold();
    breakerWindow = s.breakerWindow();
    sweepDrainBatches = s.sweepDrainBatches();
    sweepInterval = s.sweepInterval();
    scheduledTick = s.scheduledTick();
    maxRetryBackoff = s.maxRetryBackoff();
    workerStaleAfter = s.workerStaleAfter();
    leaderCheckTimeout = s.leaderCheckTimeout();
    fenceBarrierTimeout = s.fenceBarrierTimeout();
    retryAttempts = s.retryAttempts();
    retryBackoff = s.retryBackoff();
    sweeps = s.sweeps();
  }

  public MaintenanceSettingsBuilder eventWriterBatchSize(int value) {
    MaintenanceSettings.between(value, 1, 10_000, "eventWriterBatchSize");
    eventWriterBatchSize = value;
    return this;
  }

  public MaintenanceSettingsBuilder eventWriterStatementTimeout(Duration value) {
    MaintenanceSettings.positive(value, "eventWriterStatementTimeout");
    eventWriterStatementTimeout = value;
    return this;
  }

  public MaintenanceSettingsBuilder reducedBatchDivisor(int value) {
    MaintenanceSettings.between(value, 1, Integer.MAX_VALUE, "reducedBatchDivisor");
    reducedBatchDivisor = value;
    return this;
  }

  public MaintenanceSettingsBuilder breakerFailureThreshold(int value) {
    MaintenanceSettings.between(value, 1, Integer.MAX_VALUE, "breakerFailureThreshold");
    breakerFailureThreshold = value;
    return this;
  }

  public MaintenanceSettingsBuilder breakerWindow(Duration value) {
    MaintenanceSettings.positive(value, "breakerWindow");
    breakerWindow = value;
    return this;
  }

  public MaintenanceSettingsBuilder sweepDrainBatches(int value) {
    MaintenanceSettings.between(value, 1, Integer.MAX_VALUE, "sweepDrainBatches");
    sweepDrainBatches = value;
    return this;
  }

  public MaintenanceSettingsBuilder sweepInterval(Duration value) {
    MaintenanceSettings.positive(value, "sweepInterval");
    sweepInterval = value;
    return this;
  }

  public MaintenanceSettingsBuilder scheduledTick(Duration value) {
    MaintenanceSettings.positive(value, "scheduledTick");
    scheduledTick = value;
    return this;
  }

  public MaintenanceSettingsBuilder maxRetryBackoff(Duration value) {
    MaintenanceSettings.positive(value, "maxRetryBackoff");
    maxRetryBackoff = value;
    return this;
  }

  public MaintenanceSettingsBuilder workerStaleAfter(Duration value) {
    MaintenanceSettings.positive(value, "workerStaleAfter");
    workerStaleAfter = value;
    return this;
  }

  public MaintenanceSettingsBuilder leaderCheckTimeout(Duration value) {
    MaintenanceSettings.positive(value, "leaderCheckTimeout");
    leaderCheckTimeout = value;
    return this;
  }

  public MaintenanceSettingsBuilder fenceBarrierTimeout(Duration value) {
    MaintenanceSettings.positive(value, "fenceBarrierTimeout");
    fenceBarrierTimeout = value;
    return this;
  }

  public MaintenanceSettingsBuilder retryAttempts(int value) {
    MaintenanceSettings.between(value, 1, 100, "retryAttempts");
    retryAttempts = value;
    return this;
  }

  public MaintenanceSettingsBuilder retryBackoff(Duration value) {
    MaintenanceSettings.positive(value, "retryBackoff");
    retryBackoff = value;
    return this;
  }

  /** The knobs of the S4-S11 sweeps. */
  public MaintenanceSettingsBuilder sweeps(SweepKnobs value) {
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
