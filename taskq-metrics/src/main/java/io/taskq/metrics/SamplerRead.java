package io.taskq.metrics;

import io.micrometer.core.instrument.Counter;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;

/**
 * The one read of the samplers ({@link QueueSampler}, {@link GaugeSampler}, {@link PauseSampler},
 * {@link FeedLagSampler}): a failed read counts once under the sampler's {@code
 * taskq.maintenance_leader.sweep_timeouts{sweep_name}} counter and logs its exception's class only
 * (a driver's message may carry a connection string); an interrupt restores the thread's flag.
 */
final class SamplerRead {
  private SamplerRead() {}

  /** {@return what {@code read} returned, or null (one failed read counted) when it threw} */
  static <T> @Nullable T read(Callable<T> read, Counter failedReads, String sweepName, Logger log) {
    try {
      return read.call();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      failedReads.increment();
      return null;
    } catch (Exception e) {
      failedReads.increment();
      log.warn(
          "Gauge sampler {} read failed, keeping the last values ({})",
          sweepName,
          e.getClass().getName());
      return null;
    }
  }
}
