package io.taskq.postgres.internal.maintenance;

import io.taskq.core.internal.SweepBatchSizer;
import io.taskq.postgres.internal.sweep.BatchExecutor;
import io.taskq.postgres.internal.sweep.BatchFence;
import io.taskq.postgres.internal.sweep.FenceRefusedException;
import io.taskq.postgres.internal.sweep.SweepSpec;
import io.taskq.spi.MaintenanceListener;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one registered sweep: sizes each batch (breaker or fixed), runs it through the {@link
 * BatchExecutor} under the given fence, classifies the result, emits the signals, and drains.
 *
 * <p>Signals per batch (O1-O4): {@code sweepBatchSize} before it; after a commit {@code
 * sweepDuration(aborted=false)}, {@code sweepRows} and {@code sweepSucceeded}; after an abort
 * (SQLSTATE 57014 or a client timeout) {@code sweepDuration(aborted=true)} and {@code sweepTimeout}
 * but no row sample, since nothing committed. An abort also counts against the breaker; the third
 * in the window latches the reduced tier (T2), logged once.
 */
final class SweepRunner {
  private static final Logger LOG = LoggerFactory.getLogger(SweepRunner.class);

  private final SweepSpec spec;
  private final String name;
  private final BatchSizing sizing;
  private final Duration timeout;
  private final BatchExecutor executor;
  private final DataSource dataSource;
  private final MaintenanceListener signals;
  private final InstantSource clock;
  private final BatchRetry retry;
  private final SweepHealthTracker tracker;
  private @Nullable LocalDate dailyDoneFor;

  SweepRunner(
      SweepSpec spec,
      BatchSizing sizing,
      Duration timeout,
      BatchExecutor executor,
      DataSource dataSource,
      MaintenanceListener signals,
      InstantSource clock,
      BatchRetry retry) {
    this.spec = spec;
    this.name = spec.sweep().sweepName();
    this.sizing = sizing;
    this.timeout = timeout;
    this.executor = executor;
    this.dataSource = dataSource;
    this.signals = signals;
    this.clock = clock;
    this.retry = retry;
    this.tracker = new SweepHealthTracker(name);
  }

  SweepSpec spec() {
    return spec;
  }

  String name() {
    return name;
  }

  @Nullable SweepBatchSizer breaker() {
    return sizing.breaker();
  }

  /** One batch, retried on transient errors. */
  BatchOutcome runBatch(BatchFence fence) throws FenceRefusedException, SweepFailedException {
    return retry.call(name, () -> attempt(fence));
  }

  /**
   * One batch and, while batches commit with rows, more, up to {@code maxBatches} in total (S14).
   * Every batch commits before the next starts, so a drain cut short keeps its progress (B5).
   *
   * @return the rows the drain's committed batches acted on
   */
  long drain(BatchFence fence, int maxBatches, LoopState loop)
      throws FenceRefusedException, SweepFailedException {
    long rows = 0;
    for (int batch = 0; batch < maxBatches && loop.isRunning(); batch++) {
      BatchOutcome outcome = runBatch(fence);
      rows += outcome.rows();
      if (!outcome.foundRows()) {
        break;
      }
    }
    return rows;
  }

  /**
   * A daily sweep's share of this tick: nothing before its UTC time or once today's run finished;
   * otherwise a drain, and today's run is finished when a batch comes back empty.
   */
  void runDaily(BatchFence fence, int maxBatches, LoopState loop)
      throws FenceRefusedException, SweepFailedException {
    ZonedDateTime now = clock.instant().atZone(ZoneOffset.UTC);
    LocalDate today = now.toLocalDate();
    if (today.equals(dailyDoneFor) || now.toLocalTime().isBefore(requireDailyTime())) {
      return;
    }
    for (int batch = 0; batch < maxBatches && loop.isRunning(); batch++) {
      BatchOutcome outcome = runBatch(fence);
      if (outcome.aborted()) {
        return;
      }
      if (outcome.rows() == 0) {
        dailyDoneFor = today;
        LOG.info("daily sweep {} finished for {}", name, today);
        return;
      }
    }
  }

  private LocalTime requireDailyTime() {
    LocalTime at = spec.dailyAtUtc();
    if (at == null) {
      throw new IllegalStateException("sweep " + name + " is not a daily sweep");
    }
    return at;
  }

  private BatchOutcome attempt(BatchFence fence) throws SQLException {
    int size = sizing.current();
    tracker.ran(clock.instant());
    signals.sweepBatchSize(name, size, sizing.configured());
    long started = System.nanoTime();
    int rows;
    try {
      rows = executor.runInOwnTransaction(dataSource, spec.sweep(), size, timeout, fence);
    } catch (SQLException e) {
      if (e instanceof FenceRefusedException || !SweepBatchSizer.isAbort(e)) {
        throw e;
      }
      aborted(size, Duration.ofNanos(System.nanoTime() - started), e);
      return BatchOutcome.abortedBatch();
    }
    return committed(rows, started);
  }

  /** A batch started at {@code started} (nano time) committed with {@code rows}. */
  private BatchOutcome committed(int rows, long started) {
    signals.sweepDuration(name, Duration.ofNanos(System.nanoTime() - started), false);
    signals.sweepRows(name, rows);
    Instant committed = clock.instant();
    signals.sweepSucceeded(name, committed);
    sizing.recordSuccess();
    tracker.succeeded(committed);
    return BatchOutcome.committed(rows);
  }

  /** Records a run that failed for good ({@link SweepLoop} calls it), or an aborted batch. */
  void failed(Throwable error) {
    tracker.failed(error, clock.instant());
  }

  /** {@return this sweep's health now, for its {@code sweep_health} row} */
  SweepHealthRow health() {
    String tier =
        breaker() == null ? "fixed" : sizing.current() < sizing.configured() ? "reduced" : "full";
    return tracker.row(tier, sizing.current(), sizing.configured());
  }

  private void aborted(int size, Duration took, SQLException e) {
    failed(e);
    signals.sweepDuration(name, took, true);
    signals.sweepTimeout(name);
    if (sizing.recordAbort()) {
      // O2/O7 see the reduced tier at once, not only at the next batch.
      signals.sweepBatchSize(name, sizing.current(), sizing.configured());
      LOG.warn(
          "sweep {} latched to its reduced batch size {} (of {}) after repeated aborted batches;"
              + " it stays there until restart",
          name,
          sizing.current(),
          sizing.configured());
    } else {
      LOG.info(
          "sweep {} batch of {} aborted by its {} ms statement timeout after {} ms; the next call"
              + " retries it ({})",
          name,
          size,
          timeout.toMillis(),
          took.toMillis(),
          e.getMessage());
    }
  }
}
