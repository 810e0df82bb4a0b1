package io.taskq.postgres.internal.maintenance;

import io.taskq.SchemaName;
import io.taskq.core.internal.AdvisoryLockName;
import io.taskq.postgres.internal.leader.LeaderElector;
import io.taskq.postgres.internal.leader.LeaderFence;
import io.taskq.postgres.internal.leader.Leadership;
import io.taskq.postgres.internal.leader.OwnLockFence;
import io.taskq.postgres.internal.sweep.BatchFence;
import io.taskq.postgres.internal.sweep.Cadence;
import io.taskq.postgres.internal.sweep.FenceRefusedException;
import io.taskq.postgres.internal.sweep.SweepSpec;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bodies of the two maintenance loops (S14); {@link Maintenance} schedules them.
 *
 * <ul>
 *   <li>{@link #sweepTick()}, every {@code TASKQ_SWEEP_INTERVAL}: refresh leadership; as leader,
 *       run each interval sweep in registration order: a {@link Cadence#DRAINED} sweep runs a batch
 *       and, while batches find rows, more up to {@code TASKQ_SWEEP_DRAIN_BATCHES} in total; a
 *       {@link Cadence#ONE_BATCH_PER_TICK} sweep exactly one batch; a {@link Cadence#DAILY} sweep
 *       its share of the day's run. Then it yields until the next tick.
 *   <li>{@link #secondTick()}, every second: refresh leadership; as leader, exactly one batch of
 *       each {@link Cadence#EVERY_SECOND} sweep (S3). A backlog drains across ticks.
 * </ul>
 *
 * <p>Failure handling, so that no error ends a loop: a sweep whose batch failed for good ({@link
 * SweepFailedException}: transient errors exhausted, or a permanent error) is logged and the loop
 * moves on to the next sweep; the next tick tries again. A refused leader fence stops the tick and
 * re-checks leadership at once (the process steps down if it cannot prove the lock). A daily
 * sweep's busy own lock skips that sweep for this tick. An unexpected runtime exception in a sweep
 * is logged and the loop moves on.
 */
final class SweepLoop {
  private static final Logger LOG = LoggerFactory.getLogger(SweepLoop.class);

  private final SchemaName schema;
  private final LeaderElector elector;
  private final List<SweepRunner> intervalSweeps;
  private final List<SweepRunner> secondSweeps;
  private final int drainBatches;
  private final LoopState state;
  private final AtomicReference<@Nullable Exception> lastFailure = new AtomicReference<>();
  private final Map<String, OwnLockFence> ownLocks = new HashMap<>();
  private @Nullable LeaderFence fence;

  SweepLoop(
      SchemaName schema,
      LeaderElector elector,
      List<SweepRunner> sweeps,
      int drainBatches,
      LoopState state) {
    this.schema = schema;
    this.elector = elector;
    this.intervalSweeps =
        sweeps.stream().filter(r -> r.spec().cadence() != Cadence.EVERY_SECOND).toList();
    this.secondSweeps =
        sweeps.stream().filter(r -> r.spec().cadence() == Cadence.EVERY_SECOND).toList();
    this.drainBatches = drainBatches;
    this.state = state;
    for (SweepRunner sweep : sweeps) {
      AdvisoryLockName lock = sweep.spec().ownLock();
      if (lock != null) {
        ownLocks.put(sweep.name(), new OwnLockFence(schema, lock));
      }
    }
  }

  /** One iteration of the sweep loop. */
  void sweepTick() {
    Optional<Leadership> term = elector.refresh();
    if (term.isEmpty()) {
      return;
    }
    LeaderFence fence = fenceOf(term.get());
    for (SweepRunner sweep : intervalSweeps) {
      if (!state.isRunning() || !runGuarded(sweep, fence)) {
        return;
      }
    }
  }

  /** One iteration of the 1-second loop. */
  void secondTick() {
    Optional<Leadership> term = elector.refresh();
    if (term.isEmpty()) {
      return;
    }
    LeaderFence fence = fenceOf(term.get());
    for (SweepRunner sweep : secondSweeps) {
      if (!state.isRunning() || !runGuarded(sweep, fence)) {
        return;
      }
    }
  }

  /** The fence of {@code term}, built once per term (both loops share it). */
  private synchronized LeaderFence fenceOf(Leadership term) {
    LeaderFence current = fence;
    if (current == null || !current.leadership().equals(term)) {
      current = new LeaderFence(schema, term);
      fence = current;
    }
    return current;
  }

  /** The last failure a loop survived (for tests and diagnostics), or null. */
  @Nullable Exception lastFailure() {
    return lastFailure.get();
  }

  /** Runs one sweep's share of the tick; false when the tick must stop (leadership lost). */
  private boolean runGuarded(SweepRunner sweep, LeaderFence fence) {
    try {
      runCadence(sweep, fence);
      return true;
    } catch (FenceRefusedException e) {
      if (!e.isLeadershipLost()) {
        LOG.info("{}", e.getMessage());
        return true;
      }
      LOG.warn("sweep {} stopped: {}", sweep.name(), e.getMessage());
      lastFailure.set(e);
      elector.reverify();
      return false;
    } catch (SweepFailedException e) {
      LOG.warn("{}; the next tick tries again", e.getMessage(), e.getCause());
      lastFailure.set(e);
      return true;
    } catch (RuntimeException e) {
      LOG.error("sweep {} failed unexpectedly; the loop goes on", sweep.name(), e);
      lastFailure.set(e);
      return true;
    }
  }

  private void runCadence(SweepRunner sweep, LeaderFence fence)
      throws FenceRefusedException, SweepFailedException {
    SweepSpec spec = sweep.spec();
    switch (spec.cadence()) {
      case DRAINED -> sweep.drain(fence, drainBatches, state);
      case ONE_BATCH_PER_TICK, EVERY_SECOND -> sweep.runBatch(fence);
      case DAILY -> sweep.runDaily(dailyFence(fence, spec), drainBatches, state);
    }
  }

  private BatchFence dailyFence(LeaderFence fence, SweepSpec spec) {
    OwnLockFence ownLock = ownLocks.get(spec.sweep().sweepName());
    return ownLock == null ? fence : fence.andThen(ownLock);
  }
}
