package io.taskq.postgres.internal.maintenance;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * One sweep's health as its {@link SweepRunner} sees it, for the sweep's {@code sweep_health} row
 * (A8, W1): when it last ran, last committed and last failed, the last failure's class and message,
 * and how many runs failed in a row.
 *
 * <p>Written and read on the sweep's loop thread; successive ticks of a {@code
 * scheduleWithFixedDelay} loop are ordered, so no lock is needed.
 */
final class SweepHealthTracker {
  private final String name;
  private @Nullable Instant lastRunAt;
  private @Nullable Instant lastSuccessAt;
  private @Nullable Instant lastErrorAt;
  private @Nullable String lastErrorClass;
  private @Nullable String lastErrorMessage;
  private int consecutiveFailures;

  /** A sweep that has not run yet; {@code name} is its {@code sweep_name}. */
  SweepHealthTracker(String name) {
    this.name = name;
  }

  /** A batch started at {@code at}. */
  void ran(Instant at) {
    lastRunAt = at;
  }

  /** A batch committed at {@code at}: the run of failures ends. */
  void succeeded(Instant at) {
    lastSuccessAt = at;
    consecutiveFailures = 0;
  }

  /** A run failed for good, or a batch aborted, at {@code at}. */
  void failed(Throwable error, Instant at) {
    consecutiveFailures++;
    lastErrorAt = at;
    lastErrorClass = SweepHealthTable.errorClass(error);
    lastErrorMessage = SweepHealthTable.errorMessage(error);
  }

  /** {@return the sweep's row now, with the batch-size tier and sizes its runner reports} */
  SweepHealthRow row(String tier, int batchSize, int configured) {
    return new SweepHealthRow(
        name,
        tier,
        batchSize,
        configured,
        lastRunAt,
        lastSuccessAt,
        lastErrorAt,
        lastErrorClass,
        lastErrorMessage,
        consecutiveFailures);
  }
}
