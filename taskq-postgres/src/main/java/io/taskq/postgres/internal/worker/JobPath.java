package io.taskq.postgres.internal.worker;

import io.taskq.Actor;
import io.taskq.core.internal.NotifyChannels;
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
import io.taskq.postgres.internal.dispatch.ClaimedJob;
import io.taskq.postgres.internal.dispatch.Dispatcher;
import io.taskq.postgres.internal.dispatch.JobClaimer;
import io.taskq.postgres.internal.dispatch.ListenConnectionSource;
import io.taskq.postgres.internal.dispatch.PausedTargets;
import io.taskq.postgres.internal.dispatch.WakeListener;
import io.taskq.postgres.internal.execution.AttemptTimer;
import io.taskq.postgres.internal.execution.Completion;
import io.taskq.postgres.internal.execution.HandlerDecisions;
import io.taskq.postgres.internal.execution.HandlerLauncher;
import io.taskq.postgres.internal.execution.InFlight;
import io.taskq.postgres.internal.execution.RateLimitWait;
import io.taskq.postgres.internal.execution.RunningJob;
import io.taskq.postgres.internal.lease.Heartbeat;
import io.taskq.postgres.internal.lease.LeaseRelease;
import io.taskq.spi.JobListener;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * The way a job travels through one worker, assembled in that order, each stage joined to the next
 * by a named hand-off method of this class (L4, D9, L11):
 *
 * <ol>
 *   <li><b>enqueue</b> happens elsewhere ({@code JobInserter}): the job's row, and a NOTIFY on the
 *       schema's wake channel;
 *   <li><b>admit</b> ({@link ClaimGate}): free handler slots, plus one claim batch of look-ahead,
 *       decide when this worker claims and how many; a wake-up ({@link #wake()}) or the poll
 *       interval opens it;
 *   <li><b>claim</b> ({@link Dispatcher}, {@link JobClaimer}): one statement makes the due jobs
 *       {@code running} under this worker's lease and a fresh fencing token, and each goes on
 *       ({@link #launch});
 *   <li><b>execute</b> ({@link HandlerLauncher}, after a {@link RateLimitWait}): the handler runs
 *       on a handler thread; its outcome goes on ({@link #finished}) and its slot goes back ({@link
 *       #handlerDone()});
 *   <li><b>complete</b> ({@link Completer}, {@link CompletionWriter}): outcomes are recorded in
 *       batches, one statement each, matching the token; a retry due soon re-opens the gate ({@link
 *       #dueIn}).
 * </ol>
 *
 * Beside the path, from claim to the recorded outcome: the {@link Heartbeat} renews every lease in
 * {@link InFlight}, and {@link LeaseRelease} gives back what will not finish here ({@link
 * #giveBack}). The {@link WakeListener} feeds the gate, the heartbeat and the pause cache.
 */
final class JobPath {
  private static final Duration LISTEN_PROBE = Duration.ofSeconds(30);

  /** How long after a capped job's handler ends the dispatcher claims again (its write lands). */
  private static final long SLOT_FREE_CLAIM_DELAY_MS = 20;

  final InFlight inFlight = new InFlight();
  final FencedWrites fenced;
  final ClaimGate admit;
  final PausedTargets paused;
  final ReservationRegistry reservations;
  final Dispatcher claim;
  final RateLimitWait rateLimits;
  final @Nullable ExecutorService ownedHandlers;
  final AttemptTimer timeouts;
  final HandlerLauncher execute;
  final Completer complete;
  final Heartbeat heartbeat;
  final LeaseRelease leaseRelease;
  final WakeListener listener;
  final @Nullable KeyedReservationDrain keyedDrain;
  private final long capsClaimDelayMs;

  /** What the path is built from: the worker's resources, settings and extensions. */
  record Parts(
      DataSource dataSource,
      ListenConnectionSource listen,
      WorkerSettings settings,
      WorkerIdentity identity,
      Map<String, Actor<?>> actors,
      @Nullable Executor executor,
      JobListener jobListener,
      WorkerExtensions extensions,
      CapsSettings caps,
      WorkerFaults faults) {}

  JobPath(Parts p) {
    this.fenced = new FencedWrites(GuardedJobListener.of(p.jobListener()));
    WorkerSettings settings = p.settings();
    this.capsClaimDelayMs =
        p.caps().caps().isEmpty()
            ? -1
            : settings.completionLinger().toMillis() + SLOT_FREE_CLAIM_DELAY_MS;
    NamedStatements capsSql = load(settings, "caps.sql");
    NamedStatements leaseSql = load(settings, "lease.sql");
    this.admit = admit(settings);
    this.paused =
        new PausedTargets(
            p.dataSource(), load(settings, "operations.sql"), settings.pollInterval().toNanos());
    this.reservations =
        new ReservationRegistry(
            p.caps().maxKeyedReservations(), p.caps().evictionInterval(), InstantSource.system());
    this.claim = claim(p, capsSql);
    this.rateLimits = rateLimits(p);
    this.ownedHandlers =
        p.executor() == null
            ? Executors.newFixedThreadPool(
                settings.concurrency(), WorkerThreads.of("handler", p.identity().id(), true))
            : null;
    this.timeouts = new AttemptTimer(WorkerThreads.of("timeout", p.identity().id(), false));
    this.execute = execute(p, ownedHandlers != null ? ownedHandlers : p.executor());
    this.complete = complete(p);
    this.heartbeat = heartbeat(p, leaseSql);
    this.leaseRelease = leaseRelease(p, leaseSql);
    this.listener = listener(p);
    this.keyedDrain =
        p.caps().caps().hasKeyedCaps()
            ? new KeyedReservationDrain(p.dataSource(), capsSql, reservations, p.identity().id())
            : null;
  }

  /** admit: handler slots plus one claim batch of look-ahead. */
  private static ClaimGate admit(WorkerSettings settings) {
    return new ClaimGate(
        settings.concurrency(),
        settings.claimBatchSize(),
        settings.claimBatchSize(),
        settings.claimGather(),
        settings.pollInterval());
  }

  /** claim: the dispatcher loop and its one claim statement (capped under L7), then launch. */
  private Dispatcher claim(Parts p, NamedStatements capsSql) {
    JobClaimer claimer =
        new JobClaimer(
            p.dataSource(),
            load(p.settings(), "claim.sql"),
            p.identity().id(),
            p.settings().leasePeriod(),
            p.faults().claim(),
            capsSql,
            p.caps().caps(),
            reservations);
    return new Dispatcher(
        admit,
        claimer,
        this::launch,
        p.identity().queues(),
        List.copyOf(p.actors().keySet()),
        paused);
  }

  /** execute, first: an actor's rate limit may defer the job instead of running it (M5). */
  private RateLimitWait rateLimits(Parts p) {
    WorkerExtensions x = p.extensions();
    return new RateLimitWait(
        p.dataSource(),
        p.settings().schema(),
        p.identity().id(),
        x.limiterByActor(),
        x.maxKeyedRateLimits(),
        x.keyIdleAfter(),
        x.reclaimKeys(),
        inFlight,
        fenced,
        GuardedJobListener.of(p.jobListener()),
        this::dueIn);
  }

  /**
   * execute: the handler on a handler thread under its attempt timeout (A6), then its outcome and
   * its slot go on; a snooze or discard it throws is recorded from its thread (A5).
   */
  private HandlerLauncher execute(Parts p, @Nullable Executor handlers) {
    return new HandlerLauncher(
        p.actors(),
        Objects.requireNonNull(handlers, "executor"),
        p.settings().concurrency(),
        inFlight,
        this::finished,
        this::handlerDone,
        admit::noteHandlerRun,
        this::giveBack,
        GuardedJobListener.of(p.jobListener()),
        rateLimits,
        p.extensions().progress(),
        timeouts,
        new HandlerDecisions(
            p.dataSource(),
            p.settings().schema(),
            p.identity().id(),
            inFlight,
            fenced,
            this::dueIn));
  }

  /** complete: outcomes recorded in batches, one statement each. */
  private Completer complete(Parts p) {
    WorkerSettings settings = p.settings();
    CompletionWriter writer =
        new CompletionWriter(
            p.dataSource(),
            load(settings, "completion.sql"),
            p.identity().id(),
            settings.resultTtl(),
            settings.maxRetryBackoff(),
            p.faults().complete());
    return new Completer(
        writer,
        inFlight,
        fenced,
        this::dueIn,
        settings.completionBatchSize(),
        settings.concurrency(),
        settings.completionLinger());
  }

  /** Beside the path: every held lease renewed in one statement per tick. */
  private Heartbeat heartbeat(Parts p, NamedStatements leaseSql) {
    return new Heartbeat(
        p.dataSource(),
        leaseSql,
        p.identity(),
        p.settings().leasePeriod(),
        inFlight,
        fenced,
        p.faults().heartbeat());
  }

  /** Beside the path: leases given back, with a wake NOTIFY for another worker. */
  private LeaseRelease leaseRelease(Parts p, NamedStatements leaseSql) {
    String wake = NotifyChannels.of(p.settings().schema()).wake().name();
    return new LeaseRelease(p.dataSource(), leaseSql, p.identity().id(), wake, inFlight, fenced);
  }

  /** Beside the path: LISTEN for wake-ups, worker messages and pause changes. */
  private WakeListener listener(Parts p) {
    NotifyChannels channels = NotifyChannels.of(p.settings().schema());
    return new WakeListener(
        p.listen(),
        channels.wake(),
        channels.worker(p.identity().id()),
        this::wake,
        heartbeat::tickSoon,
        paused::changed,
        LISTEN_PROBE,
        p.faults().listen());
  }

  private static NamedStatements load(WorkerSettings settings, String file) {
    return NamedStatements.load("io/taskq/postgres/sql/" + file, settings.schema());
  }

  /** admit: a wake NOTIFY arrived; claim now if slots are free. */
  private void wake() {
    admit.wake();
  }

  /** claim -> execute: starts a claimed job's handler. */
  private boolean launch(ClaimedJob job) {
    return execute.launch(job);
  }

  /** execute -> complete: a handler's outcome is queued for the next batch write. */
  private void finished(Completion outcome) {
    complete.submit(outcome);
  }

  /**
   * execute -> admit: a handler ended, its slot goes back. Under concurrency caps (L7) the gate
   * also opens shortly after, once the outcome (and with it the job's reservation slots) is
   * recorded: a job waiting on a full key or actor would otherwise wait for the next poll.
   */
  private void handlerDone() {
    admit.release();
    if (capsClaimDelayMs >= 0) {
      admit.wakeIn(capsClaimDelayMs);
    }
  }

  /** complete or execute -> admit: a job becomes due again in {@code millis} (a retry, a wait). */
  private void dueIn(long millis) {
    admit.wakeIn(millis);
  }

  /** execute -> release: a job that cannot run here goes back to the queue at once. */
  private void giveBack(RunningJob job) {
    leaseRelease.release(List.of(job));
  }
}
