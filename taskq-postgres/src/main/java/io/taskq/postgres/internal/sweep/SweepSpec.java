package io.taskq.postgres.internal.sweep;

import io.taskq.core.internal.AdvisoryLockName;
import java.time.Duration;
import java.time.LocalTime;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How the maintenance loops run one {@link SweepBatch}: its {@link Cadence}, its batch size, its
 * statement timeout, and for a daily sweep the UTC time and its own advisory lock.
 *
 * <p>Built with the static factories, which check each argument at once:
 *
 * <ul>
 *   <li>{@link #breakerWrapped(SweepBatch, Cadence)}: S1, S2 ({@code DRAINED}) and S3 ({@code
 *       EVERY_SECOND}); the batch size is {@code TASKQ_EVENT_WRITER_BATCH_SIZE} through the sweep's
 *       own {@code SweepBatchSizer} (T2);
 *   <li>{@link #drained(SweepBatch, int)}: S4-S7, their batch size passed explicitly, no breaker;
 *   <li>{@link #oneBatchPerTick(SweepBatch, int)}: S8 (10 000) and S9 (256), deliberately not
 *       drained;
 *   <li>{@link #everySecond(SweepBatch, int)}: a 1-second-loop sweep without breaker;
 *   <li>{@link #daily(SweepBatch, int, LocalTime, AdvisoryLockName)}: S11 prune and archive expiry,
 *       under {@code taskq:prune:{schema}} / {@code taskq:archive_expiry:{schema}}.
 * </ul>
 *
 * Every batch runs under the leader fence; a daily sweep's batches also take its own lock. The
 * statement timeout defaults to {@code TASKQ_EVENT_WRITER_STATEMENT_TIMEOUT_MS}; {@link
 * #withStatementTimeout(Duration)} overrides it for a sweep that writes no {@code job_events} rows
 * and so is not bound by the visibility margin (prune).
 */
public final class SweepSpec {
  private final SweepBatch sweep;
  private final Cadence cadence;
  private final int batchSize;
  private final @Nullable Duration statementTimeout;
  private final @Nullable LocalTime dailyAtUtc;
  private final @Nullable AdvisoryLockName ownLock;

  private SweepSpec(
      SweepBatch sweep,
      Cadence cadence,
      int batchSize,
      @Nullable Duration statementTimeout,
      @Nullable LocalTime dailyAtUtc,
      @Nullable AdvisoryLockName ownLock) {
    this.sweep = Objects.requireNonNull(sweep, "sweep");
    this.cadence = cadence;
    this.batchSize = batchSize;
    this.statementTimeout = statementTimeout;
    this.dailyAtUtc = dailyAtUtc;
    this.ownLock = ownLock;
  }

  /**
   * A sweep sized by its breaker (T2): S1-S3.
   *
   * @param cadence {@link Cadence#DRAINED} or {@link Cadence#EVERY_SECOND}
   * @throws IllegalArgumentException for another cadence
   */
  public static SweepSpec breakerWrapped(SweepBatch sweep, Cadence cadence) {
    if (cadence != Cadence.DRAINED && cadence != Cadence.EVERY_SECOND) {
      throw new IllegalArgumentException(
          "a breaker-wrapped sweep runs DRAINED or EVERY_SECOND, not " + cadence);
    }
    return new SweepSpec(sweep, cadence, 0, null, null, null);
  }

  /** A drained sweep with an explicit batch size (S4-S7), at least 1. */
  public static SweepSpec drained(SweepBatch sweep, int batchSize) {
    return new SweepSpec(sweep, Cadence.DRAINED, positive(batchSize), null, null, null);
  }

  /** A sweep that runs exactly one batch per sweep-loop tick (S8, S9); batch size at least 1. */
  public static SweepSpec oneBatchPerTick(SweepBatch sweep, int batchSize) {
    return new SweepSpec(sweep, Cadence.ONE_BATCH_PER_TICK, positive(batchSize), null, null, null);
  }

  /** A 1-second-loop sweep with a fixed batch size, at least 1 (one batch per tick). */
  public static SweepSpec everySecond(SweepBatch sweep, int batchSize) {
    return new SweepSpec(sweep, Cadence.EVERY_SECOND, positive(batchSize), null, null, null);
  }

  /**
   * A daily sweep (S11): from {@code atUtc} on each UTC day it runs bounded batches (at most the
   * drain bound per tick) until one comes back empty, each batch holding {@code ownLock}.
   */
  public static SweepSpec daily(
      SweepBatch sweep, int batchSize, LocalTime atUtc, AdvisoryLockName ownLock) {
    return new SweepSpec(
        sweep,
        Cadence.DAILY,
        positive(batchSize),
        null,
        Objects.requireNonNull(atUtc, "atUtc"),
        Objects.requireNonNull(ownLock, "ownLock"));
  }

  /**
   * The same spec with its own statement timeout, between 1 ms and 24 days.
   *
   * @throws IllegalArgumentException for a timeout outside that range
   */
  public SweepSpec withStatementTimeout(Duration timeout) {
    if (timeout.toMillis() < 1 || timeout.toMillis() > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "statement timeout of sweep "
              + sweep.sweepName()
              + " must be between 1 ms and "
              + Integer.MAX_VALUE
              + " ms, was "
              + timeout);
    }
    return new SweepSpec(sweep, cadence, batchSize, timeout, dailyAtUtc, ownLock);
  }

  public SweepBatch sweep() {
    return sweep;
  }

  public Cadence cadence() {
    return cadence;
  }

  /** True when the batch size comes from the sweep's breaker rather than {@link #batchSize()}. */
  public boolean isBreakerWrapped() {
    return batchSize == 0;
  }

  /** The explicit batch size; 0 for a breaker-wrapped sweep. */
  public int batchSize() {
    return batchSize;
  }

  /** The spec's own statement timeout, or null for the event-writer default. */
  public @Nullable Duration statementTimeout() {
    return statementTimeout;
  }

  /** The UTC time a daily sweep starts, or null. */
  public @Nullable LocalTime dailyAtUtc() {
    return dailyAtUtc;
  }

  /** A daily sweep's own lock, or null. */
  public @Nullable AdvisoryLockName ownLock() {
    return ownLock;
  }

  private static int positive(int batchSize) {
    if (batchSize < 1) {
      throw new IllegalArgumentException("batchSize must be at least 1, was " + batchSize);
    }
    return batchSize;
  }

  @Override
  public String toString() {
    return sweep.sweepName()
        + " ("
        + cadence
        + (isBreakerWrapped() ? ", breaker" : ", batch " + batchSize)
        + ")";
  }
}
