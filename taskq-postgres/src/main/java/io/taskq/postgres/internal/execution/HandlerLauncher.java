package io.taskq.postgres.internal.execution;

import io.taskq.Actor;
import io.taskq.postgres.internal.dispatch.ClaimedJob;
import io.taskq.postgres.internal.dispatch.JobLauncher;
import io.taskq.spi.JobListener;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts each claimed job's handler on the handler executor, after recording the attempt as in
 * flight (so the heartbeat renews its lease from the first tick).
 *
 * <p>At most {@code concurrency} handlers run at once, whatever the executor: the worker may hold
 * one claim batch more than it has handler slots (so the next claim's round trip overlaps the
 * running handlers instead of following them), and those jobs wait here, in claim order. A task on
 * the executor is a <em>runner</em>: it runs its job, then takes the next waiting one, and ends
 * when none is left; so at most {@code concurrency} of the executor's tasks are TaskQ's, and a busy
 * worker hands jobs from one to the next without a thread hand-off per job. At shutdown {@link
 * #takeWaiting()} hands the jobs that never started back to the worker, which releases their leases
 * at once.
 *
 * <p>When the executor refuses a runner (the application shut it down, or its queue is full) the
 * job is taken back at once: its lease is released without using up an attempt, so another worker
 * runs it, and its slot is freed.
 */
public final class HandlerLauncher implements JobLauncher {
  private static final Logger LOG = LoggerFactory.getLogger(HandlerLauncher.class);

  private final Map<String, Actor<?>> actors;
  private final Executor executor;
  private final int concurrency;
  private final InFlight inFlight;
  private final Consumer<Completion> completions;
  private final Runnable freeSlot;
  private final LongConsumer handlerRan;
  private final Consumer<RunningJob> giveBack;
  private final JobListener listener;
  private final @Nullable RateLimitWait rateLimits;
  private final ProgressSink progress;
  private final @Nullable AttemptTimer timer;
  private final @Nullable HandlerDecisions decisions;
  private final ArrayDeque<Launch> waiting = new ArrayDeque<>();
  private int runners;

  /**
   * @param concurrency most handlers running at once (the worker's handler slots)
   * @param freeSlot frees one slot (the claim reserved one per job)
   * @param handlerRan told how long each job kept its handler busy, in nanoseconds
   * @param giveBack releases the lease of a job that could not start
   * @param listener hears each run's start and end; must not throw (guard it)
   * @param rateLimits asked before each rate-limited actor's job runs (M5); null when no actor is
   *     rate-limited
   * @param progress where handlers' progress reports go (M5)
   * @param timer fires attempt timeouts (A6); null to enforce none
   * @param decisions records handlers' snoozes and discards (A5); null to record them as ordinary
   *     failures
   */
  public HandlerLauncher(
      Map<String, Actor<?>> actors,
      Executor executor,
      int concurrency,
      InFlight inFlight,
      Consumer<Completion> completions,
      Runnable freeSlot,
      LongConsumer handlerRan,
      Consumer<RunningJob> giveBack,
      JobListener listener,
      @Nullable RateLimitWait rateLimits,
      ProgressSink progress,
      @Nullable AttemptTimer timer,
      @Nullable HandlerDecisions decisions) {
    if (concurrency < 1) {
      throw new IllegalArgumentException("concurrency must be at least 1, was " + concurrency);
    }
    this.actors = Map.copyOf(actors);
    this.executor = executor;
    this.concurrency = concurrency;
    this.inFlight = inFlight;
    this.completions = completions;
    this.freeSlot = freeSlot;
    this.handlerRan = handlerRan;
    this.giveBack = giveBack;
    this.listener = listener;
    this.rateLimits = rateLimits == null || rateLimits.isEmpty() ? null : rateLimits;
    this.progress = progress;
    this.timer = timer;
    this.decisions = decisions;
  }

  /** A job with the actor whose handler runs it. */
  private record Launch(RunningJob job, Actor<?> actor) {}

  @Override
  public boolean launch(ClaimedJob claim) {
    RunningJob job = new RunningJob(claim, progress);
    inFlight.add(job);
    Actor<?> actor = actors.get(claim.actor());
    if (actor == null) {
      // The claim selects only registered actors; this is a defensive path.
      finishWithoutRunning(job, "no handler is registered for actor '" + claim.actor() + "'");
      return true;
    }
    Launch launch = new Launch(job, actor);
    synchronized (waiting) {
      if (runners >= concurrency) {
        waiting.addLast(launch);
        return true;
      }
      runners++;
    }
    try {
      executor.execute(() -> runFrom(launch));
      return true;
    } catch (RejectedExecutionException e) {
      synchronized (waiting) {
        runners--;
      }
      LOG.debug("handler executor refused {}; releasing its lease: {}", job, e.toString());
      if (job.release()) {
        giveBack.accept(job);
      }
      freeSlot.run();
      return false;
    }
  }

  /**
   * A runner: runs {@code first}, then each waiting job, until none is left. A runner never leaves
   * waiting jobs behind without another runner: they hold slots of the claim gate, and jobs nobody
   * runs would keep the worker from ever claiming again.
   */
  private void runFrom(Launch first) {
    Launch next = first;
    while (next != null) {
      long started = System.nanoTime();
      try {
        run(next.job(), next.actor()).run();
      } catch (RuntimeException e) {
        // JobRun records every handler failure itself; this is a bug around it. Keep running.
        LOG.error("running {} failed outside its handler; going on with the next job", next, e);
      } catch (Error e) {
        handOver();
        throw e;
      }
      handlerRan.accept(System.nanoTime() - started);
      next = nextOrRetire();
    }
  }

  /** This runner ends abruptly: a waiting job, if any, starts a runner of its own. */
  private void handOver() {
    Launch next;
    synchronized (waiting) {
      next = waiting.pollFirst();
      if (next == null) {
        runners--;
        return;
      }
    }
    Launch handed = next;
    try {
      executor.execute(() -> runFrom(handed));
    } catch (RejectedExecutionException e) {
      List<Launch> stranded = new ArrayList<>();
      stranded.add(handed);
      synchronized (waiting) {
        runners--;
        if (runners == 0) {
          stranded.addAll(waiting);
          waiting.clear();
        }
      }
      for (Launch launch : stranded) {
        if (launch.job().release()) {
          giveBack.accept(launch.job());
        }
        freeSlot.run();
      }
    }
  }

  private @Nullable Launch nextOrRetire() {
    synchronized (waiting) {
      Launch next = waiting.pollFirst();
      if (next == null) {
        runners--;
      }
      return next;
    }
  }

  /**
   * Removes and returns the jobs still waiting for a handler (shutdown releases their leases; their
   * slots stay reserved until the caller frees them).
   */
  public List<RunningJob> takeWaiting() {
    synchronized (waiting) {
      List<RunningJob> jobs = waiting.stream().map(Launch::job).toList();
      waiting.clear();
      return jobs;
    }
  }

  private <T> JobRun<T> run(RunningJob job, Actor<T> actor) {
    return new JobRun<>(job, actor, completions, freeSlot, rateLimits, listener, timer, decisions);
  }

  private void finishWithoutRunning(RunningJob job, String why) {
    if (job.finish()) {
      completions.accept(new Completion(job, Outcome.failed("UnknownActor", why)));
    }
    freeSlot.run();
  }
}
