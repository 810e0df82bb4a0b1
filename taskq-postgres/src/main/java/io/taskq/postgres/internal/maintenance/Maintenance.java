package io.taskq.postgres.internal.maintenance;

import io.taskq.SchemaName;
import io.taskq.core.internal.AdvisoryLockName;
import io.taskq.core.internal.SweepBatchSizer;
import io.taskq.postgres.internal.cron.CronTick;
import io.taskq.postgres.internal.leader.LeaderConnectionSource;
import io.taskq.postgres.internal.leader.LeaderElector;
import io.taskq.postgres.internal.sweep.BatchExecutor;
import io.taskq.postgres.internal.sweep.Cadence;
import io.taskq.postgres.internal.sweep.SweepSpec;
import io.taskq.spi.MaintenanceHealth;
import io.taskq.spi.MaintenanceListener;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The maintenance of one schema: leader election and the leader's sweep loops (guide §1-§3, S14).
 *
 * <p>Every process runs one; exactly one per schema is the leader at a time and runs the sweeps,
 * the others keep trying to acquire leadership on every tick. Two loops, each on its own thread:
 * the sweep loop every {@code TASKQ_SWEEP_INTERVAL} and the 1-second loop (see {@link SweepLoop}).
 * What runs is the {@link SweepCatalog}: by default its breaker-wrapped rows S1-S3, with {@link
 * Builder#everySweep()} all of it; each breaker-wrapped sweep has its own {@link SweepBatchSizer}.
 * Tests plug in sweeps of their own through {@link Builder#sweep(SweepSpec)}. The TaskQ facade
 * wires it as:
 *
 * <pre>{@code
 * Maintenance.builder(pool, config.schemaName(), LeaderConnectionSource.fromConfig(config).orElseThrow())
 *     .settings(MaintenanceSettings.from(config))
 *     .everySweep()                           // S1-S9, S11
 *     .listener(metrics)
 *     .build()
 *     .start();
 * }</pre>
 *
 * <p>Startable on its own (a {@code DataSource} for the batches, a {@link LeaderConnectionSource}
 * for the dedicated lock connection, the schema, settings and a listener), so the TaskQ facade
 * starts it and tests can too. {@link #start()} once, {@link #close()} once: close stops the loops
 * between batches (a running batch finishes or is aborted by its own timeout), then gives up
 * leadership.
 */
public final class Maintenance implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Maintenance.class);

  private final SchemaName schema;
  private final MaintenanceSettings settings;
  private final MaintenanceHealth health;
  private final LeaderElector elector;
  private final List<SweepRunner> runners;
  private final SweepLoop loop;
  private final ScheduledExecutorService scheduler;
  private final List<ScheduledFuture<?>> ticks = new ArrayList<>();
  private final MaintenanceListener signals;
  private final Set<String> actors;
  private volatile boolean running = true;
  private boolean started;

  private Maintenance(Builder b) {
    this.schema = b.schema;
    this.settings = b.settings;
    this.health = new MaintenanceHealth(settings.sweepInterval(), b.clock);
    MaintenanceListener signals = new Signals(List.of(health, b.listener));
    this.signals = signals;
    this.actors = b.actors;
    AdvisoryLockName lock =
        b.leaderLock != null
            ? b.leaderLock
            : AdvisoryLockName.of(AdvisoryLockName.Purpose.MAINTENANCE_LEADER, schema);
    this.elector =
        new LeaderElector(
            schema,
            lock,
            b.leaderConnections,
            settings.leaderCheckTimeout(),
            settings.fenceBarrierTimeout(),
            signals,
            settings.scheduledTick(),
            System::nanoTime);
    BatchRetry retry =
        new BatchRetry(
            settings.retryAttempts(),
            settings.retryBackoff(),
            b.faults,
            b.sleeper,
            () -> ThreadLocalRandom.current().nextDouble());
    BatchExecutor executor = new BatchExecutor(schema);
    // R7: a leader whose sweeps get no connection for as long as its lock session may stay idle
    // gives up the lock.
    PoolOutage outage = new PoolOutage(elector.idleSessionLimit(), b.nanoTime);
    WatchedPool pool = new WatchedPool(b.dataSource, outage);
    List<SweepRunner> built = new ArrayList<>();
    for (SweepSpec spec : specs(b, signals)) {
      built.add(runner(b, spec, new SweepWiring(executor, pool, signals, retry)));
    }
    this.runners = List.copyOf(built);
    SweepHealthTable table =
        new SweepHealthTable(
            b.dataSource, schema, settings.eventWriterStatementTimeout(), b.clock, health);
    this.loop =
        new SweepLoop(
            schema,
            elector,
            runners,
            settings.sweepDrainBatches(),
            this::isRunning,
            health,
            table,
            settings.sweepInterval(),
            settings.scheduledTick(),
            outage,
            pool);
    this.scheduler = b.scheduler != null ? b.scheduler : defaultScheduler(schema);
  }

  /**
   * A builder for the maintenance of {@code schema}.
   *
   * @param dataSource the pool the batches borrow connections from
   * @param leaderConnections opens the dedicated leader-lock connection (never a pooled one)
   */
  public static Builder builder(
      DataSource dataSource, SchemaName schema, LeaderConnectionSource leaderConnections) {
    return new Builder(dataSource, schema, leaderConnections);
  }

  private List<SweepSpec> specs(Builder b, MaintenanceListener signals) {
    List<SweepSpec> specs =
        new ArrayList<>(SweepCatalog.specs(schema, settings, signals, b.catalogRows));
    specs.addAll(b.extraSweeps);
    Set<String> names = new HashSet<>();
    for (SweepSpec spec : specs) {
      if (!names.add(spec.sweep().sweepName())) {
        throw new IllegalArgumentException(
            "two sweeps are named '" + spec.sweep().sweepName() + "'; sweep names must be unique");
      }
      // R4: each sweep is judged by the cadence of the loop that runs it, not all by the sweep
      // interval (S3 runs on the 1-second loop, whatever TASKQ_SWEEP_INTERVAL says).
      Duration period = expectedPeriod(spec.cadence());
      if (period != null) {
        health.expectPeriod(spec.sweep().sweepName(), period);
      }
    }
    return specs;
  }

  /** How often a sweep of {@code cadence} succeeds when healthy; null: every sweep interval. */
  private @Nullable Duration expectedPeriod(Cadence cadence) {
    return switch (cadence) {
      case DAILY -> Duration.ofDays(1);
      case EVERY_SECOND -> settings.scheduledTick();
      case DRAINED, ONE_BATCH_PER_TICK -> null;
    };
  }

  /** What every runner shares: the executor, the sweeps' watched pool, signals and retry. */
  private record SweepWiring(
      BatchExecutor executor, DataSource pool, MaintenanceListener signals, BatchRetry retry) {}

  private SweepRunner runner(Builder b, SweepSpec spec, SweepWiring w) {
    BatchSizing sizing =
        spec.isBreakerWrapped()
            ? BatchSizing.breaker(
                new SweepBatchSizer(
                    spec.sweep().sweepName(),
                    settings.eventWriterBatchSize(),
                    settings.reducedBatchDivisor(),
                    settings.breakerFailureThreshold(),
                    settings.breakerWindow(),
                    b.nanoTime))
            : BatchSizing.fixed(spec.batchSize());
    Duration timeout =
        Objects.requireNonNullElse(spec.statementTimeout(), settings.eventWriterStatementTimeout());
    return new SweepRunner(
        spec, sizing, timeout, w.executor(), w.pool(), w.signals(), b.clock, w.retry());
  }

  /**
   * Starts both loops; the first ticks run at once.
   *
   * @throws IllegalStateException when already started or closed
   */
  public synchronized void start() {
    if (started || !running) {
      throw new IllegalStateException(
          "maintenance of schema " + schema.quoted() + " was already started");
    }
    started = true;
    // R6: every sweep_name this maintenance may report (and the cron tick's), every actor the
    // reclaim may report, so a binding registers their counters at zero before any event.
    Set<String> names = new LinkedHashSet<>();
    runners.forEach(r -> names.add(r.name()));
    names.add(CronTick.NAME);
    signals.maintenanceStarted(Set.copyOf(names), actors);
    long interval = settings.sweepInterval().toMillis();
    long tick = settings.scheduledTick().toMillis();
    ticks.add(
        scheduler.scheduleWithFixedDelay(
            () -> guarded(loop::sweepTick), 0, interval, TimeUnit.MILLISECONDS));
    ticks.add(
        scheduler.scheduleWithFixedDelay(
            () -> guarded(loop::secondTick), 0, tick, TimeUnit.MILLISECONDS));
    // P4: one short line at INFO; the sweeps' full specs (hundreds of characters) at DEBUG.
    LOG.info(
        "maintenance of schema {} started: {} sweeps every {}",
        schema.quoted(),
        runners.size(),
        settings.sweepInterval());
    LOG.debug(
        "maintenance of schema {}: sweeps {}, drain {} batches, 1 s loop every {}",
        schema.quoted(),
        runners.stream().map(r -> r.spec().toString()).toList(),
        settings.sweepDrainBatches(),
        settings.scheduledTick());
  }

  private void guarded(Runnable tick) {
    if (!running) {
      return;
    }
    try {
      tick.run();
    } catch (RuntimeException e) {
      LOG.error("a maintenance loop tick failed; the loop goes on", e);
    }
  }

  /**
   * Stops the loops (waiting for a running batch, bounded), then gives up leadership. Idempotent.
   */
  @Override
  public void close() {
    synchronized (this) {
      if (!running) {
        return;
      }
      running = false;
      ticks.forEach(t -> t.cancel(false));
    }
    scheduler.shutdown();
    try {
      Duration wait = settings.eventWriterStatementTimeout().multipliedBy(4).plusSeconds(5);
      if (!scheduler.awaitTermination(wait.toMillis(), TimeUnit.MILLISECONDS)) {
        LOG.warn("maintenance loops of schema {} did not stop within {}", schema.quoted(), wait);
        scheduler.shutdownNow();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      scheduler.shutdownNow();
    } finally {
      elector.close();
    }
  }

  /**
   * Cuts the leader's connection under whatever is stuck on it (a frozen server): part of a bounded
   * close (R1). The session lock goes with the session.
   */
  public void abortConnections() {
    scheduler.shutdownNow();
    elector.abortConnection();
  }

  /** The readiness view of this process's sweeps (O7). */
  public MaintenanceHealth health() {
    return health;
  }

  /**
   * Whether this process is the schema's proven maintenance leader now (R6): its lock was proven
   * within the proof validity and any failover handover wait has passed ({@link
   * LeaderElector#isProven()}). Never waits.
   */
  public boolean isLeader() {
    return elector.isProven();
  }

  boolean isRunning() {
    return running;
  }

  /** Runs one iteration of the sweep loop on the calling thread (tests drive the loop with it). */
  void sweepTick() {
    loop.sweepTick();
  }

  /** Runs one iteration of the 1-second loop on the calling thread. */
  void secondTick() {
    loop.secondTick();
  }

  LeaderElector elector() {
    return elector;
  }

  @Nullable Exception lastFailure() {
    return loop.lastFailure();
  }

  @Nullable SweepBatchSizer breaker(String sweepName) {
    return runners.stream()
        .filter(r -> r.name().equals(sweepName))
        .findFirst()
        .map(SweepRunner::breaker)
        .orElse(null);
  }

  private static ScheduledExecutorService defaultScheduler(SchemaName schema) {
    AtomicInteger count = new AtomicInteger();
    ThreadFactory threads =
        r -> {
          Thread t =
              new Thread(r, "taskq-maintenance-" + schema.value() + "-" + count.incrementAndGet());
          t.setDaemon(true);
          return t;
        };
    return Executors.newScheduledThreadPool(2, threads);
  }

  /**
   * Builds a {@link Maintenance}; every setting has a default except the three constructor ones.
   */
  public static final class Builder {
    private final DataSource dataSource;
    private final SchemaName schema;
    private final LeaderConnectionSource leaderConnections;
    private MaintenanceSettings settings = MaintenanceSettings.defaults();
    private MaintenanceListener listener = MaintenanceListener.NONE;
    private InstantSource clock = InstantSource.system();
    private java.util.function.LongSupplier nanoTime = System::nanoTime;
    private @Nullable AdvisoryLockName leaderLock;
    private Predicate<SweepCatalog> catalogRows = SweepCatalog::breakerWrapped;
    private final List<SweepSpec> extraSweeps = new ArrayList<>();
    private MaintenanceFaults faults = MaintenanceFaults.disarmed();
    private Sleeper sleeper = Sleeper.SYSTEM;
    private @Nullable ScheduledExecutorService scheduler;
    private Set<String> actors = Set.of();

    private Builder(DataSource dataSource, SchemaName schema, LeaderConnectionSource connections) {
      this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
      this.schema = Objects.requireNonNull(schema, "schema");
      this.leaderConnections = Objects.requireNonNull(connections, "leaderConnections");
    }

    public Builder settings(MaintenanceSettings value) {
      settings = Objects.requireNonNull(value, "settings");
      return this;
    }

    /** Receives the signals (metrics binding); default none. */
    public Builder listener(MaintenanceListener value) {
      listener = Objects.requireNonNull(value, "listener");
      return this;
    }

    /** The clock for success stamps, readiness ages and daily sweeps; default the system clock. */
    public Builder clock(InstantSource value) {
      clock = Objects.requireNonNull(value, "clock");
      return this;
    }

    /**
     * The monotonic clock of the breakers' window and of a pool outage; default {@link
     * System#nanoTime()}.
     */
    public Builder nanoTime(java.util.function.LongSupplier value) {
      nanoTime = Objects.requireNonNull(value, "nanoTime");
      return this;
    }

    /**
     * The leader lock; default {@code taskq:maintenance_leader:{schema}}. Another name simulates an
     * older release's leader during a rolling deploy (tests).
     */
    public Builder leaderLock(AdvisoryLockName value) {
      leaderLock = Objects.requireNonNull(value, "leaderLock");
      return this;
    }

    /** Runs every sweep of the {@link SweepCatalog} (S1-S9, S11); the default is S1-S3 only. */
    public Builder everySweep() {
      catalogRows = row -> true;
      return this;
    }

    /** Leaves out every catalog sweep, S1-S3 too (tests that run only their own sweeps). */
    public Builder withoutStandardSweeps() {
      catalogRows = row -> false;
      return this;
    }

    /** Registers one more sweep, run after the standard ones in registration order. */
    public Builder sweep(SweepSpec spec) {
      extraSweeps.add(Objects.requireNonNull(spec, "spec"));
      return this;
    }

    /** Registers several sweeps in order, after the catalog's. */
    public Builder sweeps(Collection<SweepSpec> specs) {
      specs.forEach(this::sweep);
      return this;
    }

    /**
     * The actors this process knows (registered or declared known): the labels the reclaim meter is
     * registered with at zero on start (R6); default none.
     */
    public Builder actors(Collection<String> names) {
      actors = Set.copyOf(names);
      return this;
    }

    /** The fault seam (tests); default a disarmed seam of this component's own. */
    public Builder faults(MaintenanceFaults value) {
      faults = Objects.requireNonNull(value, "faults");
      return this;
    }

    Builder sleeper(Sleeper value) {
      sleeper = Objects.requireNonNull(value, "sleeper");
      return this;
    }

    /**
     * The scheduler that runs the two loops; default two daemon threads of this component's own.
     */
    public Builder scheduler(ScheduledExecutorService value) {
      scheduler = Objects.requireNonNull(value, "scheduler");
      return this;
    }

    /**
     * Builds the component (not started).
     *
     * @throws IllegalArgumentException when two sweeps share a name
     */
    public Maintenance build() {
      return new Maintenance(this);
    }
  }
}
