package io.taskq.postgres.internal;

import com.zaxxer.hikari.HikariDataSource;
import io.taskq.EnqueueInterceptor;
import io.taskq.TaskQConfig;
import io.taskq.postgres.internal.cron.CronLoop;
import io.taskq.postgres.internal.cron.PayloadFactories;
import io.taskq.postgres.internal.leader.LeaderConnectionSource;
import io.taskq.postgres.internal.maintenance.Maintenance;
import io.taskq.postgres.internal.maintenance.MaintenanceSettings;
import io.taskq.postgres.internal.worker.Worker;
import io.taskq.spi.JobListener;
import io.taskq.spi.MaintenanceHealth;
import io.taskq.spi.MaintenanceListener;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Collection;
import java.util.List;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * What a started TaskQ root runs: its worker (L11), its maintenance candidacy (M1) and its cron
 * loop (S12), and the order they stop in, gracefully within the close deadline (R1) or at once like
 * a killed process. Internal: only {@code TaskQ} holds one.
 */
public final class RunningParts {
  private final TaskQConfig config;
  private volatile @Nullable Worker worker;
  private volatile @Nullable Maintenance maintenance;
  private volatile @Nullable CronLoop cron;
  // What close() is stopping, for the close deadline's abort.
  private volatile @Nullable Worker closingWorker;
  private volatile @Nullable Maintenance closingMaintenance;
  private volatile @Nullable CronLoop closingCron;
  private volatile @Nullable HikariDataSource closingPool;

  /** The parts of a root with {@code config}'s settings, none started. */
  public RunningParts(TaskQConfig config) {
    this.config = config;
  }

  /** Keeps the worker the root started. */
  public void workerStarted(Worker started) {
    worker = started;
  }

  /**
   * Starts campaigning for the schema's maintenance leadership and the cron loop, whose fires pass
   * through {@code enqueueInterceptors} (P6).
   */
  public void startMaintenanceAndCron(
      DataSource dataSource,
      LeaderConnectionSource leaderSource,
      PayloadFactories payloadFactories,
      TestHooks hooks,
      MaintenanceListener listener,
      JobListener jobListener,
      List<EnqueueInterceptor> enqueueInterceptors,
      Collection<String> actors) {
    Maintenance started = maintenance(dataSource, leaderSource, listener, actors);
    started.start();
    maintenance = started;
    CronLoop loop =
        CronLoop.create(
            dataSource,
            config,
            payloadFactories,
            hooks.cronFaults(),
            listener,
            jobListener,
            enqueueInterceptors);
    cron = loop;
    loop.start();
  }

  private Maintenance maintenance(
      DataSource dataSource,
      LeaderConnectionSource leaderSource,
      MaintenanceListener listener,
      Collection<String> actors) {
    return Maintenance.builder(dataSource, config.schemaName(), leaderSource)
        .settings(MaintenanceSettings.from(config))
        .everySweep()
        .listener(listener)
        .actors(actors)
        .build();
  }

  /**
   * The running worker.
   *
   * @throws IllegalStateException naming {@code state} when none runs
   */
  public Worker worker(Object state) {
    Worker running = worker;
    if (running == null) {
      throw new IllegalStateException("TaskQ is " + state + ", not running");
    }
    return running;
  }

  /** The readiness view of the maintenance (O7); not leading reports no sweep yet. */
  public MaintenanceHealth.Report health() {
    Maintenance running = maintenance;
    if (running == null) {
      return new MaintenanceHealth(config.sweepInterval(), InstantSource.system()).report();
    }
    return running.health().report();
  }

  /** Whether the maintenance leads now, as of its last check (never waits on the database). */
  public boolean isLeader() {
    Maintenance running = maintenance;
    return running != null && running.isLeader();
  }

  /** The close deadline: the shutdown grace plus one dispatcher command timeout. */
  public Duration closeBudget() {
    return config.shutdownGrace().plus(config.dispatcherCommandTimeout());
  }

  /**
   * Stops in order: the cron loop, the maintenance (giving up leadership), the worker (handing back
   * unfinished jobs), then {@code pool}, when the root opened one.
   */
  public void stop(@Nullable HikariDataSource pool) {
    Maintenance maintaining = maintenance;
    Worker running = worker;
    CronLoop ticking = cron;
    closingMaintenance = maintaining;
    closingPool = pool;
    closingCron = ticking;
    closingWorker = running;
    forget();
    if (ticking != null) {
      ticking.close();
    }
    try {
      if (maintaining != null) {
        maintaining.close();
      }
    } finally {
      stopWorkerAndPool(running, pool);
    }
  }

  private static void stopWorkerAndPool(@Nullable Worker running, @Nullable HikariDataSource pool) {
    try {
      if (running != null) {
        running.close();
      }
    } finally {
      if (pool != null) {
        pool.close();
      }
    }
  }

  /** The close deadline's expiry: cuts what {@link #stop} is stuck on, on the wire. */
  public void abortInUse() {
    CronLoop ticking = closingCron;
    if (ticking != null) {
      ticking.abort();
    }
    Maintenance maintaining = closingMaintenance;
    if (maintaining != null) {
      maintaining.abortConnections();
    }
    Worker running = closingWorker;
    if (running != null) {
      running.abortConnections();
    }
    HikariDataSource closing = closingPool;
    if (closing != null) {
      closing.close();
    }
  }

  /**
   * Dies like a killed process ({@link TestHooks#crash()}): the maintenance stops and its leader
   * connection closes; the worker stops without recording outcomes, releasing leases or deleting
   * its row, so its jobs are left to the reclaim sweep.
   */
  public void crash(TestHooks hooks, @Nullable HikariDataSource pool) {
    Maintenance maintaining = maintenance;
    Worker running = worker;
    CronLoop ticking = cron;
    forget();
    if (ticking != null) {
      ticking.close();
    }
    if (maintaining != null) {
      maintaining.close();
    }
    if (running != null) {
      hooks.worker().crash();
    }
    if (pool != null) {
      pool.close();
    }
  }

  private void forget() {
    maintenance = null;
    worker = null;
    cron = null;
  }
}
