package io.taskq.postgres.internal.worker;

import io.taskq.Actor;
import io.taskq.postgres.internal.NamedStatements;
import io.taskq.postgres.internal.TestHooks;
import io.taskq.postgres.internal.WorkerIdentity;
import io.taskq.postgres.internal.caps.CapsSettings;
import io.taskq.postgres.internal.caps.KeyedReservationDrain;
import io.taskq.postgres.internal.completion.Completer;
import io.taskq.postgres.internal.dispatch.ClaimGate;
import io.taskq.postgres.internal.dispatch.Dispatcher;
import io.taskq.postgres.internal.dispatch.ListenConnectionSource;
import io.taskq.postgres.internal.dispatch.WakeListener;
import io.taskq.postgres.internal.execution.HandlerLauncher;
import io.taskq.postgres.internal.execution.InFlight;
import io.taskq.postgres.internal.execution.RunningJob;
import io.taskq.postgres.internal.lease.Heartbeat;
import io.taskq.spi.JobListener;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One worker: the engine that wires claiming, running, recording and leasing together.
 *
 * <p><b>Threads.</b> A worker runs four threads of its own besides the handlers: the
 * <em>dispatcher</em> (claims due jobs in batches when handler slots are free, {@link Dispatcher}),
 * the <em>listener</em> (LISTEN on a dedicated connection, turning wake-ups into signals, {@link
 * WakeListener}), the <em>completer</em> (records finished attempts in batches, {@link Completer})
 * and the <em>heartbeat</em> (refreshes the worker row and renews every held lease in one statement
 * per tick, {@link Heartbeat}). Handlers run on the application's executor or on a fixed pool of
 * {@code concurrency} threads the worker owns; either way at most {@code concurrency} run at once
 * ({@link HandlerLauncher}). Each claimed job holds one slot of the {@link ClaimGate}, which for
 * short jobs has up to one claim batch more slots than there are handlers (its look-ahead): the
 * next claim is made while the handlers still run the last one, and its jobs wait for a free
 * handler, so a busy worker does not idle for every claim's round trip.
 *
 * <p><b>One job's path</b> is assembled, stage after stage in the order a job meets them, by {@link
 * JobPath}: admit -> claim (running, lease, fencing token) -> {@link InFlight} -> handler ->
 * outcome queued -> slot freed -> batch write (succeeded / pending again / failed / cancelled, with
 * attempt and event rows) -> out of {@link InFlight}. From claim to the write, the heartbeat keeps
 * the lease alive; every write matches the token (D9).
 *
 * <p><b>Shutdown</b> ({@link #close()}, L11), in this order, each step after the one before: stop
 * claiming; release the leases of claimed jobs still waiting for a handler; wait up to the grace
 * period for running handlers; release the leases of the ones still running (back to pending, due
 * now, attempt not used up, a wake NOTIFY so another worker takes them at once) and interrupt them;
 * record every queued outcome; stop the heartbeat and the listener; delete the worker row; stop the
 * owned handler pool. Nothing that finished is lost, and nothing unfinished waits for a lease to
 * lapse.
 */
public final class Worker implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Worker.class);
  private static final Duration JOIN_TIMEOUT = Duration.ofSeconds(10);

  private final WorkerSettings settings;
  private final WorkerIdentity identity;
  private final WorkerRegistration registration;
  private final WorkerFaults faults;
  private final JobPath path;
  private final CapsSettings caps;
  private final WorkerExtensions extensions;
  private final ScheduledExecutorService scheduler;
  private final ScheduledExecutorService drainScheduler;
  private final Thread completeThread;
  private final Thread listenThread;
  private final Thread dispatchThread;
  private final AtomicBoolean closed = new AtomicBoolean();

  private Worker(JobPath.Parts parts, WorkerRegistration registration) {
    this.settings = parts.settings();
    this.identity = parts.identity();
    this.faults = parts.faults();
    this.caps = parts.caps();
    this.extensions = parts.extensions();
    this.registration = registration;
    this.path = new JobPath(parts);
    String id = identity.id();
    this.scheduler =
        Executors.newSingleThreadScheduledExecutor(WorkerThreads.of("heartbeat", id, false));
    // S10 runs on its own thread: a slow drain must never delay a heartbeat.
    this.drainScheduler =
        Executors.newSingleThreadScheduledExecutor(WorkerThreads.of("keyed-drain", id, false));
    this.completeThread = WorkerThreads.of("complete", id, false).newThread(path.complete);
    this.listenThread = WorkerThreads.of("listen", id, false).newThread(path.listener);
    this.dispatchThread = WorkerThreads.of("dispatch", id, false).newThread(path.claim);
  }

  /**
   * Registers a worker for {@code actors} and starts its loops: the job path ({@link JobPath}), the
   * heartbeat, and the keyed reservation drain (S10) when a keyed cap is declared.
   *
   * @param executor runs the handlers; null for a pool of {@code concurrency} threads the worker
   *     owns
   * @param jobListener hears each job's start and end (guarded: its exceptions are logged and
   *     dropped)
   * @param extensions rate limits and progress (M5)
   * @param caps the concurrency caps the claim enforces (L7)
   * @param hooks where the worker registers what the project's tests read of it ({@link
   *     WorkerProbe})
   * @throws SQLException when the worker cannot register (nothing is left running then)
   */
  public static Worker start(
      DataSource dataSource,
      ListenConnectionSource listen,
      WorkerSettings settings,
      Collection<Actor<?>> actors,
      @Nullable Executor executor,
      JobListener jobListener,
      WorkerExtensions extensions,
      CapsSettings caps,
      TestHooks hooks)
      throws SQLException {
    Map<String, Actor<?>> byName = new LinkedHashMap<>();
    actors.forEach(a -> byName.put(a.name(), a));
    WorkerIdentity identity =
        new WorkerIdentity(
            WorkerId.random(), Host.name(), Host.pid(), settings.queues(), settings.concurrency());
    WorkerRegistration registration =
        new WorkerRegistration(
            dataSource,
            NamedStatements.load("io/taskq/postgres/sql/worker.sql", settings.schema()));
    Worker worker =
        new Worker(
            new JobPath.Parts(
                dataSource,
                listen,
                settings,
                identity,
                byName,
                executor,
                jobListener,
                extensions,
                caps,
                WorkerFaults.disarmed()),
            registration);
    hooks.workerStarted(new WorkerProbe(identity.id(), worker.faults, worker.path, worker::crash));
    try {
      registration.register(identity, actors);
    } catch (SQLException | RuntimeException e) {
      worker.stopExecutors();
      throw e;
    }
    worker.startLoops();
    LOG.info(
        "worker {} started: schema {}, queues {}, {} actors, concurrency {}",
        identity.id(),
        settings.schema(),
        identity.queues(),
        byName.size(),
        settings.concurrency());
    return worker;
  }

  private void startLoops() {
    path.heartbeat.start(scheduler, settings.heartbeatInterval());
    KeyedReservationDrain drain = path.keyedDrain;
    if (drain != null) {
      long every = caps.evictionInterval().toMillis();
      Future<?> unused =
          drainScheduler.scheduleWithFixedDelay(drain, every, every, TimeUnit.MILLISECONDS);
    }
    if (!path.rateLimits.isEmpty()) {
      long every = extensions.evictionInterval().toMillis();
      ScheduledFuture<?> unused =
          scheduler.scheduleWithFixedDelay(
              this::evictIdleKeys, every, every, TimeUnit.MILLISECONDS);
    }
    completeThread.start();
    listenThread.start();
    dispatchThread.start();
  }

  /** S10: the worker's own keyed-eviction tick; a failure waits for the next tick. */
  private void evictIdleKeys() {
    try {
      path.rateLimits.evictIdle();
    } catch (RuntimeException e) {
      LOG.warn(
          "worker {}: reclaiming idle rate-limit keys failed: {}", identity.id(), e.toString());
    }
  }

  /** Graceful shutdown (L11); see the class comment for the order. Idempotent. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    try {
      stopClaiming();
      releaseWaiting();
      releaseUnfinished(awaitHandlers());
      recordOutcomes();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      LOG.warn(
          "worker {} shutdown interrupted; unrecorded outcomes will be reclaimed", identity.id());
    } finally {
      path.heartbeat.stop();
      path.listener.stop();
      joinLoops();
      deregister();
      stopExecutors();
      LOG.info("worker {} stopped", identity.id());
    }
  }

  /**
   * Cuts the worker's own listen connection under a close stuck on a database that does not answer
   * (R1), and interrupts the claim and completion loops: aborting the pool's in-use connections
   * ends the statements on the wire, but a loop still waiting to borrow a connection from a pool
   * the stuck statements exhausted would wait out the pool's acquisition timeout (30 s). The pooled
   * connections themselves are the pool owner's to abort.
   */
  public void abortConnections() {
    path.listener.abort();
    dispatchThread.interrupt();
    completeThread.interrupt();
  }

  private void stopClaiming() throws InterruptedException {
    path.admit.stop();
    join(dispatchThread);
  }

  /** Claimed jobs no handler started yet go back to the queue at once, for another worker. */
  private void releaseWaiting() {
    List<RunningJob> waiting = path.execute.takeWaiting();
    List<RunningJob> released = waiting.stream().filter(RunningJob::release).toList();
    path.leaseRelease.release(released);
    waiting.forEach(job -> path.admit.release());
    if (!waiting.isEmpty()) {
      LOG.info("worker {}: {} claimed jobs not started; leases released", id(), waiting.size());
    }
  }

  private boolean awaitHandlers() throws InterruptedException {
    return path.admit.awaitIdle(settings.shutdownGrace());
  }

  private void releaseUnfinished(boolean allDone) {
    if (allDone) {
      return;
    }
    List<RunningJob> unfinished =
        path.inFlight.running().stream().filter(RunningJob::release).toList();
    int released = path.leaseRelease.release(unfinished);
    unfinished.forEach(RunningJob::interrupt);
    LOG.info(
        "worker {}: {} handlers outlived the {} grace period; {} leases released",
        identity.id(),
        unfinished.size(),
        settings.shutdownGrace(),
        released);
  }

  private void recordOutcomes() throws InterruptedException {
    Duration patience = settings.leasePeriod();
    path.complete.finish(patience);
    join(completeThread, patience.plus(JOIN_TIMEOUT));
  }

  private void joinLoops() {
    try {
      for (Thread loop : List.of(dispatchThread, completeThread, listenThread)) {
        if (loop.isAlive()) {
          join(loop);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void join(Thread thread) throws InterruptedException {
    join(thread, JOIN_TIMEOUT);
  }

  private static void join(Thread thread, Duration timeout) throws InterruptedException {
    thread.join(timeout.toMillis());
    if (thread.isAlive()) {
      LOG.warn("{} did not stop within {}", thread.getName(), timeout);
    }
  }

  private void deregister() {
    try {
      registration.deregister(identity.id());
    } catch (SQLException e) {
      LOG.warn(
          "worker {} could not remove its row; the stale-worker sweep will: {}",
          identity.id(),
          e.toString());
    }
  }

  private void stopExecutors() {
    path.timeouts.shutdown();
    scheduler.shutdownNow();
    drainScheduler.shutdownNow();
    ExecutorService handlers = path.ownedHandlers;
    if (handlers != null) {
      handlers.shutdownNow();
      try {
        handlers.awaitTermination(1, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Dies the way a killed process does ({@link WorkerProbe#crash()}); see there. */
  private void crash() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    path.heartbeat.stop();
    path.timeouts.shutdown();
    scheduler.shutdownNow();
    drainScheduler.shutdownNow();
    completeThread.interrupt();
    path.admit.stop();
    dispatchThread.interrupt();
    path.listener.stop();
    joinLoops();
    ExecutorService handlers = path.ownedHandlers;
    if (handlers != null) {
      handlers.shutdownNow();
    }
    LOG.info("worker {} crashed on purpose (test)", identity.id());
  }

  /** The worker's id, as in {@code workers.id} and {@code jobs.locked_by}. */
  public String id() {
    return identity.id();
  }

  /** The queues this worker claims from. */
  public List<String> queues() {
    return identity.queues();
  }
}
