package io.taskq.postgres.internal.execution;

import io.taskq.core.Actor;
import io.taskq.core.spi.JobListener;
import io.taskq.postgres.internal.dispatch.ClaimedJob;
import io.taskq.postgres.internal.dispatch.JobLauncher;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts each claimed job's handler on the handler executor, after recording the attempt as in
 * flight (so the heartbeat renews its lease from the first tick).
 *
 * <p>When the executor refuses the task (the application shut it down, or its queue is full) the
 * job is taken back at once: its lease is released without using up an attempt, so another worker
 * runs it, and its slot is freed.
 */
public final class HandlerLauncher implements JobLauncher {
  private static final Logger LOG = LoggerFactory.getLogger(HandlerLauncher.class);

  private final Map<String, Actor<?>> actors;
  private final Executor executor;
  private final InFlight inFlight;
  private final Consumer<Completion> completions;
  private final Runnable freeSlot;
  private final Consumer<RunningJob> giveBack;
  private final @Nullable RateLimitWait rateLimits;
  private final ProgressSink progress;
  private final JobListener listener;

  /**
   * @param freeSlot frees one handler slot (the claim reserved one per job)
   * @param giveBack releases the lease of a job that could not start
   * @param listener hears each run's start and end; must not throw (guard it)
   */
  public HandlerLauncher(
      Map<String, Actor<?>> actors,
      Executor executor,
      InFlight inFlight,
      Consumer<Completion> completions,
      Runnable freeSlot,
      Consumer<RunningJob> giveBack,
      JobListener listener) {
    this(
        actors,
        executor,
        inFlight,
        completions,
        freeSlot,
        giveBack,
        listener,
        null,
        ProgressSink.NONE);
  }

  /**
   * @param rateLimits asked before each rate-limited actor's job runs (M5); null when no actor is
   *     rate-limited
   * @param progress where handlers' progress reports go (M5)
   */
  public HandlerLauncher(
      Map<String, Actor<?>> actors,
      Executor executor,
      InFlight inFlight,
      Consumer<Completion> completions,
      Runnable freeSlot,
      Consumer<RunningJob> giveBack,
      JobListener listener,
      @Nullable RateLimitWait rateLimits,
      ProgressSink progress) {
    this.rateLimits = rateLimits == null || rateLimits.isEmpty() ? null : rateLimits;
    this.progress = progress;
    this.actors = Map.copyOf(actors);
    this.executor = executor;
    this.inFlight = inFlight;
    this.completions = completions;
    this.freeSlot = freeSlot;
    this.giveBack = giveBack;
    this.listener = listener;
  }

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
    try {
      executor.execute(run(job, actor));
      return true;
    } catch (RejectedExecutionException e) {
      LOG.debug("handler executor refused {}; releasing its lease: {}", job, e.toString());
      if (job.release()) {
        giveBack.accept(job);
      }
      freeSlot.run();
      return false;
    }
  }

  private <T> JobRun<T> run(RunningJob job, Actor<T> actor) {
    return new JobRun<>(job, actor, completions, freeSlot, rateLimits, listener);
  }

  private void finishWithoutRunning(RunningJob job, String why) {
    if (job.finish()) {
      completions.accept(new Completion(job, Outcome.failed("UnknownActor", why)));
    }
    freeSlot.run();
  }
}
