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
import io.taskq.spi.MaintenanceHealth;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;
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
 * <p>A tick that ran its sweeps to the end writes their health rows, one upsert ({@link
 * SweepHealthTable}, V012), so any process can read what this leader knows.
 *
 * <p>Failure handling, so that no error ends a loop: a sweep whose batch failed for good ({@link
 * SweepFailedException}: transient errors exhausted, or a permanent error) is logged and the loop
 * moves on to the next sweep; the next tick tries again. A refused leader fence stops the tick and
 * re-checks leadership at once (the process steps down if it cannot prove the lock). A daily
 * sweep's busy own lock skips that sweep for this tick. An unexpected runtime exception in a sweep
 * is logged and the loop moves on.
 *
 * <p>A batch whose pool gave no connection ({@link SweepFailedException#isNoConnection()}) stops
 * the tick: the other sweeps share the pool. When the pool has given no connection for the {@link
 * PoolOutage} limit, the leader gives up the lock ({@link LeaderElector#resign(String)}, R7) and
 * neither loop campaigns again until a probe of the pool gets a connection or the hold-off passes.
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
  private final MaintenanceHealth health;
  private final SweepHealthTable healthTable;
  private final Duration sweepInterval;
  private final Duration secondTick;
  private final PoolOutage outage;
  private final DataSource pool;
  private @Nullable LeaderFence fence;

  /**
   * @param health the readiness view, told how long each tick took
   * @param healthTable writes each tick's sweep health rows
   * @param sweepInterval the sweep loop's period, {@code TASKQ_SWEEP_INTERVAL}
   * @param secondTick the 1-second loop's period
   * @param outage the state of the sweeps' pool, fed by {@code pool}
   * @param pool the sweeps' {@link WatchedPool}, probed while a hold-off runs
   */
  SweepLoop(
      SchemaName schema,
      LeaderElector elector,
      List<SweepRunner> sweeps,
      int drainBatches,
      LoopState state,
      MaintenanceHealth health,
      SweepHealthTable healthTable,
      Duration sweepInterval,
      Duration secondTick,
      PoolOutage outage,
      DataSource pool) {
    this.schema = schema;
    this.outage = outage;
    this.pool = pool;
    this.health = health;
    this.healthTable = healthTable;
    this.sweepInterval = sweepInterval;
    this.secondTick = secondTick;
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
    tick(intervalSweeps, sweepInterval);
  }

  /** One iteration of the 1-second loop. */
  void secondTick() {
    tick(secondSweeps, secondTick);
  }

  /**
   * Refreshes leadership; as leader runs {@code sweeps} in order, then writes their health rows
   * (one upsert) unless the tick stopped early (leadership lost, closing).
   */
  private void tick(List<SweepRunner> sweeps, Duration period) {
    long started = System.nanoTime();
    if (holdingOff()) {
      return;
    }
    // The hold-off is asked again under the elector's lock: the other loop may arm it and resign
    // while this one waits there (the check above probed the pool outside that lock).
    Optional<Leadership> term = elector.refresh(() -> !outage.holdingOff());
    if (term.isEmpty()) {
      return;
    }
    LeaderFence fence = fenceOf(term.get());
    for (SweepRunner sweep : sweeps) {
      if (!state.isRunning() || !runGuarded(sweep, fence)) {
        return;
      }
    }
    // R4: the readiness view judges each sweep by its loop's cadence, work time included.
    health.loopTicked(names(sweeps), Duration.ofNanos(System.nanoTime() - started));
    if (state.isRunning()) {
      healthTable.write(term.get(), sweeps, period);
    }
  }

  private static List<String> names(List<SweepRunner> sweeps) {
    return sweeps.stream().map(SweepRunner::name).toList();
  }

  /**
   * The fence of {@code term}, built once per term (both loops share it); a new term restarts the
   * pool outage's measure.
   */
  private synchronized LeaderFence fenceOf(Leadership term) {
    LeaderFence current = fence;
    if (current == null || !current.leadership().equals(term)) {
      current = new LeaderFence(schema, term);
      fence = current;
      outage.termStarted();
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
      lastFailure.set(e);
      sweep.failed(e.getCause() != null ? e.getCause() : e);
      if (e.isNoConnection()) {
        noConnection(e);
        return false;
      }
      LOG.warn("{}; the next tick tries again", e.getMessage(), e.getCause());
      return true;
    } catch (RuntimeException e) {
      LOG.error("sweep {} failed unexpectedly; the loop goes on", sweep.name(), e);
      lastFailure.set(e);
      sweep.failed(e);
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

  /**
   * A sweep got no connection: logged once per outage; once the outage has lasted the limit, the
   * leader gives up the lock and the hold-off starts (R7).
   */
  private void noConnection(SweepFailedException e) {
    if (outage.firstReport()) {
      LOG.info(
          "{}; the sweeps wait for their pool, and after {} ms without a connection this process"
              + " gives up the leader lock",
          e.getMessage(),
          outage.limit().toMillis());
    } else {
      LOG.debug("{}", e.getMessage());
    }
    if (!state.isRunning() || !outage.outlasted()) {
      return;
    }
    String why =
        String.format(
            "its sweeps got no database connection from their pool for %d ms (last: %s), so"
                + " another process may lead; it campaigns again once the pool gives a connection,"
                + " or in %d ms",
            outage.lasted().toMillis(), outage.lastFailure(), outage.nextHoldOff().toMillis());
    // The hold-off is armed before the lock is given up, so the other loop, whose campaign asks
    // for it under the elector's lock, cannot take the lock straight back (a CI run saw it retake
    // it 9 ms after the resignation). Should this process have lost the lock meanwhile, the
    // hold-off still holds: its pool has given nothing for the limit.
    outage.steppedDown();
    elector.resign(why);
  }

  /**
   * Whether this process holds off campaigning after giving up the lock to a pool outage: until a
   * probe of the pool gets a connection, or the hold-off passes.
   */
  private boolean holdingOff() {
    if (!outage.holdingOff()) {
      return false;
    }
    try {
      pool.getConnection().close();
    } catch (SQLException e) {
      return true;
    }
    LOG.info("the sweeps' pool gives connections again; campaigning for the leader lock");
    return false;
  }
}
