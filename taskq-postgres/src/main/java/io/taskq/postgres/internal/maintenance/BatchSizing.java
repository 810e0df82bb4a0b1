package io.taskq.postgres.internal.maintenance;

import io.taskq.core.internal.SweepBatchSizer;
import org.jspecify.annotations.Nullable;

/**
 * Where a sweep's batch size comes from: its {@link SweepBatchSizer} breaker (S1-S3, T2) or a fixed
 * number (the other sweeps pass theirs explicitly).
 */
final class BatchSizing {
  private final @Nullable SweepBatchSizer breaker;
  private final int fixed;

  private BatchSizing(@Nullable SweepBatchSizer breaker, int fixed) {
    this.breaker = breaker;
    this.fixed = fixed;
  }

  static BatchSizing breaker(SweepBatchSizer sizer) {
    return new BatchSizing(sizer, 0);
  }

  static BatchSizing fixed(int batchSize) {
    return new BatchSizing(null, batchSize);
  }

  int current() {
    return breaker == null ? fixed : breaker.currentBatchSize();
  }

  int configured() {
    return breaker == null ? fixed : breaker.configuredBatchSize();
  }

  void recordSuccess() {
    if (breaker != null) {
      breaker.recordSuccess();
    }
  }

  /** Counts an aborted batch; true when it latched the reduced tier. */
  boolean recordAbort() {
    return breaker != null && breaker.recordAbort();
  }

  /** The breaker, or null for a fixed size. */
  @Nullable SweepBatchSizer breaker() {
    return breaker;
  }
}
