package io.taskq.postgres.internal.worker;

import io.taskq.core.Actor;
import io.taskq.core.internal.NotifyChannels;
import io.taskq.core.spi.JobListener;
import io.taskq.postgres.internal.FencedWrites;
import io.taskq.postgres.internal.GuardedJobListener;
import io.taskq.postgres.internal.NamedStatements;
import io.taskq.postgres.internal.WorkerIdentity;
import io.taskq.postgres.internal.caps.CapsSettings;
import io.taskq.postgres.internal.caps.KeyedReservationDrain;
import io.taskq.postgres.internal.caps.ReservationRegistry;
import io.taskq.postgres.internal.completion.Completer;
import io.taskq.postgres.internal.completion.CompletionWriter;
import io.taskq.postgres.internal.dispatch.ClaimGate;
import io.taskq.postgres.internal.dispatch.Dispatcher;
import io.taskq.postgres.internal.dispatch.JobClaimer;
import io.taskq.postgres.internal.dispatch.ListenConnectionSource;
import io.taskq.postgres.internal.dispatch.PausedTargets;
import io.taskq.postgres.internal.dispatch.WakeListener;
import io.taskq.postgres.internal.execution.HandlerLauncher;
import io.taskq.postgres.internal.execution.InFlight;
import io.taskq.postgres.internal.execution.RateLimitWait;
import io.taskq.postgres.internal.execution.RunningJob;
import io.taskq.postgres.internal.lease.Heartbeat;
import io.taskq.postgres.internal.lease.LeaseRelease;
import java.sql.SQLException;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
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
 * <p><b>One job's path.</b> claim (running, lease, fencing token) -> {@link InFlight} -> handler ->
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
  private static final Duration LISTEN_PROBE = Duration.ofSeconds(30);
  private static final Duration JOIN_TIMEOUT = Duration.ofSeconds(10);

  /** How long after a capped job's handler ends the dispatcher claims again (its write lands). */
  private static final long SLOT_FREE_CLAIM_DELAY_MS = 20;

  private final WorkerSettings settings;
  private final WorkerIdentity identity;
  private final WorkerRegistration registration;
  private final WorkerFaults faults = WorkerFaults.disarmed();
  private final FencedWrites fenced = new FencedWrites();
  private final InFlight inFlight = new InFlight();
  private final ClaimGate gate;
  private final Completer completer;
  private final Heartbeat heartbeat;
  private final WakeListener listener;
  private final Dispatcher dispatcher;
  private final LeaseRelease leaseRelease;
  private final ReservationRegistry reservations;
  private final @Nullable KeyedReservationDrain keyedDrain;
  private final CapsSettings caps;
  private final HandlerLauncher launcher;
  private final RateLimitWait rateLimits;
  private final WorkerExtensions extensions;
  private final @Nullable ExecutorService ownedHandlers;
  private final ScheduledExecutorService scheduler;
  private final ScheduledExecutorService drainScheduler;
  private final Thread completeThread;
  private final Thread listenThread;
  private final Thread dispatchThread;
  private final AtomicBoolean closed = new AtomicBoolean();

  private Worker(
      DataSource dataSource,
      ListenConnectionSource listen,
      WorkerSettings settings,
      Map<String, Actor<?>> actors,
      @Nullable Executor executor,
      JobListener jobListener,
      WorkerExtensions extensions,
      CapsSettings caps) {
    this.settings = settings;
    this.extensions = extensions;
    this.caps = caps;
    String id = WorkerId.random();
    this.identity =
        new WorkerIdentity(id, Host.name(), Host.pid(), settings.queues(), settings.concurrency());
    NamedStatements leaseSql = load("lease.sql");
    NotifyChannels channels = NotifyChannels.of(settings.schema());
    this.registration = new WorkerRegistration(dataSource, load("worker.sql"));
    this.gate =
        new ClaimGate(
            settings.concurrency(),
            settings.claimBatchSize(),
            settings.claimBatchSize(),
            settings.claimGather(),
            settings.pollInterval());
    this.leaseRelease =
        new LeaseRelease(dataSource, leaseSql, id, channels.wake().name(), inFlight, fenced);
    this.completer =
        new Completer(
            new CompletionWriter(
                dataSource,
                load("completion.sql"),
                id,
                settings.resultTtl(),
                settings.maxRetryBackoff(),
                faults.complete()),
            inFlight,
            fenced,
            gate::wakeIn,
            settings.completionBatchSize(),
            settings.concurrency(),
            settings.completionLinger());
    this.heartbeat =
        new Heartbeat(
            dataSource,
            leaseSql,
            identity,
            settings.leasePeriod(),
            inFlight,
            fenced,
            faults.heartbeat());
    this.rateLimits =
        new RateLimitWait(
            dataSource,
            settings.schema(),
            id,
            extensions.limiterByActor(),
            extensions.maxKeyedRateLimits(),
            extensions.keyIdleAfter(),
            extensions.reclaimKeys(),
            inFlight,
            fenced,
            gate::wakeIn);
    ExecutorService owned =
        executor == null
            ? Executors.newFixedThreadPool(
                settings.concurrency(), WorkerThreads.of("handler", id, true))
            : null;
    this.ownedHandlers = owned;
    this.launcher =
        new HandlerLauncher(
            actors,
            owned != null ? owned : Objects.requireNonNull(executor),
            settings.concurrency(),
            inFlight,
            completer::submit,
            freeSlot(caps),
            gate::noteHandlerRun,
            job -> leaseRelease.release(List.of(job)),
            GuardedJobListener.of(jobListener),
            rateLimits,
            extensions.progress());
    this.reservations =
        new ReservationRegistry(
            caps.maxKeyedReservations(), caps.evictionInterval(), InstantSource.system());
    NamedStatements capsSql = load("caps.sql");
    this.keyedDrain =
        caps.caps().hasKeyedCaps()
            ? new KeyedReservationDrain(dataSource, capsSql, reservations, id)
            : null;
    PausedTargets paused =
        new PausedTargets(dataSource, load("operations.sql"), settings.pollInterval().toNanos());
    this.dispatcher =
        new Dispatcher(
            gate,
            new JobClaimer(
                dataSource,
                load("claim.sql"),
                id,
                settings.leasePeriod(),
                faults.claim(),
                capsSql,
                caps.caps(),
                reservations),
            launcher,
            identity.queues(),
            List.copyOf(actors.keySet()),
            paused);
    this.listener =
        new WakeListener(
            listen,
            channels.wake(),
            channels.worker(id),
            gate::wake,
            heartbeat::tickSoon,
            paused::changed,
            LISTEN_PROBE,
            faults.listen());
    this.scheduler =
        Executors.newSingleThreadScheduledExecutor(WorkerThreads.of("heartbeat", id, false));
    // S10 runs on its own thread: a slow drain must never delay a heartbeat.
    this.drainScheduler =
        Executors.newSingleThreadScheduledExecutor(WorkerThreads.of("keyed-drain", id, false));
    this.completeThread = WorkerThreads.of("complete", id, false).newThread(completer);
    this.listenThread = WorkerThreads.of("listen", id, false).newThread(listener);
    this.dispatchThread = WorkerThreads.of("dispatch", id, false).newThread(dispatcher);
  }

  /**
   * What a finished handler does to its handler slot. Under concurrency caps (L7) it also asks for
   * a claim shortly after, once the outcome (and with it the job's reservation slots) has been
   * recorded: a job waiting on a full key or actor would otherwise wait for the next poll.
   */
  private Runnable freeSlot(CapsSettings caps) {
    if (caps.caps().isEmpty()) {
      return gate::release;
    }
    long after = settings.completionLinger().toMillis() + SLOT_FREE_CLAIM_DELAY_MS;
    return () -> {
      gate.release();
      gate.wakeIn(after);
    };
  }

  /**
   * Registers a worker for {@code actors} and starts its loops.
   *
   * @param executor runs the handlers; null for a pool of {@code concurrency} threads the worker
   *     owns
   * @throws SQLException when the worker cannot register (nothing is left running then)
   */
  public static Worker start(
      DataSource dataSource,
      ListenConnectionSource listen,
      WorkerSettings settings,
      Collection<Actor<?>> actors,
      @Nullable Executor executor)
      throws SQLException {
    return start(
        dataSource, listen, settings, actors, executor, JobListener.NONE, WorkerExtensions.NONE);
  }

  /**
   * Registers a worker for {@code actors} and starts its loops; {@code jobListener} hears each
   * job's start and end (guarded: its exceptions are logged and dropped).
   *
   * @param executor runs the handlers; null for a pool of {@code concurrency} threads the worker
   *     owns
   * @throws SQLException when the worker cannot register (nothing is left running then)
   */
  public static Worker start(
      DataSource dataSource,
      ListenConnectionSource listen,
      WorkerSettings settings,
      Collection<Actor<?>> actors,
      @Nullable Executor executor,
      JobListener jobListener)
      throws SQLException {
    return start(
        dataSource, listen, settings, actors, executor, jobListener, WorkerExtensions.NONE);
  }

  /**
   * Registers a worker for {@code actors} and starts its loops, with a job listener and with rate
   * limits and progress ({@code extensions}, M5).
   *
   * @param executor runs the handlers; null for a pool of {@code concurrency} threads the worker
   *     owns
   * @throws SQLException when the worker cannot register (nothing is left running then)
   */
  public static Worker start(
      DataSource dataSource,
      ListenConnectionSource listen,
      WorkerSettings settings,
      Collection<Actor<?>> actors,
      @Nullable Executor executor,
      JobListener jobListener,
      WorkerExtensions extensions)
      throws SQLException {
    return start(
        dataSource,
        listen,
        settings,
        actors,
        executor,
        jobListener,
        extensions,
        CapsSettings.none());
  }

  /**
   * Registers a worker for {@code actors} that also enforces the concurrency caps of {@code caps}
   * (L7) and starts its loops, the keyed reservation drain (S10) among them when a keyed cap is
   * declared.
   *
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
      CapsSettings caps)
      throws SQLException {
    Map<String, Actor<?>> byName = new LinkedHashMap<>();
    actors.forEach(a -> byName.put(a.name(), a));
    Worker worker =
        new Worker(dataSource, listen, settings, byName, executor, jobListener, extensions, caps);
    try {
      worker.registration.register(worker.identity, actors);
    } catch (SQLException | RuntimeException e) {
      worker.stopExecutors();
      throw e;
    }
    worker.startLoops();
    LOG.info(
        "worker {} started: schema {}, queues {}, {} actors, concurrency {}",
        worker.identity.id(),
        settings.schema(),
        worker.identity.queues(),
        byName.size(),
        settings.concurrency());
    return worker;
  }

  private NamedStatements load(String file) {
    return NamedStatements.load("io/taskq/postgres/sql/" + file, settings.schema());
  }

  private void startLoops() {
    heartbeat.start(scheduler, settings.heartbeatInterval());
    KeyedReservationDrain drain = keyedDrain;
    if (drain != null) {
      long every = caps.evictionInterval().toMillis();
      Future<?> unused =
          drainScheduler.scheduleWithFixedDelay(drain, every, every, TimeUnit.MILLISECONDS);
    }
    if (!rateLimits.isEmpty()) {
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
      rateLimits.evictIdle();
    } catch (RuntimeException e) {
      LOG.warn(
          "worker {}: reclaiming idle rate-limit keys failed: {}", identity.id(), e.toString());
    }
  }

  /** The keyed rate limits this worker's registry holds now (S10). */
  public int registeredRateLimitKeys() {
    return rateLimits.registeredKeys();
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
      heartbeat.stop();
      listener.stop();
      joinLoops();
      deregister();
      stopExecutors();
      LOG.info("worker {} stopped", identity.id());
    }
  }

  /**
   * Cuts the worker's own listen connection under a close stuck on a database that does not answer
   * (R1); the pooled connections are the pool owner's to abort.
   */
  public void abortConnections() {
    listener.abort();
  }

  private void stopClaiming() throws InterruptedException {
    gate.stop();
    join(dispatchThread);
  }

  /** Claimed jobs no handler started yet go back to the queue at once, for another worker. */
  private void releaseWaiting() {
    List<RunningJob> waiting = launcher.takeWaiting();
    List<RunningJob> released = waiting.stream().filter(RunningJob::release).toList();
    leaseRelease.release(released);
    waiting.forEach(job -> gate.release());
    if (!waiting.isEmpty()) {
      LOG.info("worker {}: {} claimed jobs not started; leases released", id(), waiting.size());
    }
  }

  private boolean awaitHandlers() throws InterruptedException {
    return gate.awaitIdle(settings.shutdownGrace());
  }

  private void releaseUnfinished(boolean allDone) {
    if (allDone) {
      return;
    }
    List<RunningJob> unfinished = inFlight.running().stream().filter(RunningJob::release).toList();
    int released = leaseRelease.release(unfinished);
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
    completer.finish(patience);
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
    scheduler.shutdownNow();
    drainScheduler.shutdownNow();
    ExecutorService handlers = ownedHandlers;
    if (handlers != null) {
      handlers.shutdownNow();
      try {
        handlers.awaitTermination(1, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Test-only: dies the way a killed process does. Every loop stops and every handler is
   * interrupted with nothing written: no outcome recorded (the completer stops first), no lease
   * released, the worker row left in place. What this worker held is left to the reclaim sweep
   * (S1). Idempotent; {@link #close()} afterwards does nothing.
   */
  public void crashForTest() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    heartbeat.stop();
    scheduler.shutdownNow();
    drainScheduler.shutdownNow();
    completeThread.interrupt();
    gate.stop();
    dispatchThread.interrupt();
    listener.stop();
    joinLoops();
    ExecutorService handlers = ownedHandlers;
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

  /** Test-only fault seams, born disarmed. */
  public WorkerFaults faults() {
    return faults;
  }

  /** Writes the lease fence turned away so far (D9). */
  public long fencedWrites() {
    return fenced.count();
  }

  /** Notifications received on the schema's wake channel so far. */
  public long wakeNotifications() {
    return listener.wakeNotifications();
  }

  /** Times the listener (re)connected. */
  public long listenerConnects() {
    return listener.connects();
  }

  /** Successful heartbeat ticks so far. */
  public long heartbeats() {
    return heartbeat.ticks();
  }

  /** Completion statements that succeeded so far. */
  public long completionBatches() {
    return completer.batches();
  }

  /** This worker's registry of the reservation scopes it claimed slots of (S10, M7). */
  public ReservationRegistry reservations() {
    return reservations;
  }

  /** The keyed reservation drain (S10); empty when no actor declares a keyed cap. */
  public Optional<KeyedReservationDrain> keyedDrain() {
    return Optional.ofNullable(keyedDrain);
  }

  /** Attempts held right now (claimed and not yet recorded or released). */
  public int held() {
    return inFlight.size();
  }
}
