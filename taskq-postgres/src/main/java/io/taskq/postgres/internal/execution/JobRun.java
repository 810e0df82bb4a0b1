package io.taskq.postgres.internal.execution;

import io.taskq.Actor;
import io.taskq.DiscardException;
import io.taskq.SnoozeException;
import io.taskq.core.internal.JsonSyntax;
import io.taskq.spi.JobListener;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One handler run on the handler executor: decode the payload, call the handler, encode the result,
 * and hand the outcome to the completer; then free the handler slot.
 *
 * <p>Anything the codec or handler throws, {@link Error}s included, becomes a failure outcome, so a
 * job never stays held by a worker whose handler blew up. A run whose lease shutdown released first
 * has its outcome discarded (the job is already back in the queue).
 *
 * <p>The job listener hears the start (with the pickup latency from the claim's database times) and
 * the end of the handler run (succeeded or failed, with the execution time measured here); the
 * listener is guarded, so it cannot fail the job.
 *
 * <p>A6: when the job or its actor has an attempt timeout, a timer fires it while the handler runs:
 * if the handler is still inside the job then, the attempt is failed with {@code AttemptTimeout} at
 * once (the completer records it, releasing the lease, and the stamped policy decides the retry)
 * and the handler's thread is interrupted. The handler slot stays taken until the handler returns:
 * the thread is the handler's until then, and the worker never runs more handlers than its
 * concurrency.
 *
 * <p>A5: a {@link SnoozeException} or {@link DiscardException} thrown by the handler is the
 * handler's decision, recorded by {@link HandlerDecisions} from this thread.
 */
final class JobRun<T> implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(JobRun.class);

  private final RunningJob job;
  private final Actor<T> actor;
  private final Consumer<Completion> completions;
  private final Runnable freeSlot;
  private final @Nullable RateLimitWait rateLimits;
  private final JobListener listener;
  private final @Nullable AttemptTimer timer;
  private final @Nullable HandlerDecisions decisions;
  private volatile long startedNanos;

  JobRun(
      RunningJob job,
      Actor<T> actor,
      Consumer<Completion> completions,
      Runnable freeSlot,
      @Nullable RateLimitWait rateLimits,
      JobListener listener,
      @Nullable AttemptTimer timer,
      @Nullable HandlerDecisions decisions) {
    this.job = job;
    this.actor = actor;
    this.completions = completions;
    this.freeSlot = freeSlot;
    this.rateLimits = rateLimits;
    this.listener = listener;
    this.timer = timer;
    this.decisions = decisions;
  }

  /** What the handler did: the outcome, and a snooze or discard it threw (A5), if any. */
  private record Ran(Outcome outcome, @Nullable RuntimeException decision) {}

  @Override
  public void run() {
    try {
      RateLimitWait limits = rateLimits;
      if (limits != null && !limits.admit(job, actor)) {
        return; // handed back to wait for its rate limit (M5)
      }
      listener.jobStarted(job.actor(), job.queue(), job.pickupLatency());
      startedNanos = System.nanoTime();
      Ran ran = execute();
      Duration execution = Duration.ofNanos(System.nanoTime() - startedNanos);
      if (!job.finish()) {
        if (job.timedOut()) {
          LOG.info(
              "{} returned {} ms after it was started, past its attempt timeout; its handler slot"
                  + " is free again",
              job,
              execution.toMillis());
        } else {
          LOG.debug("{} finished after its lease was released; outcome discarded", job);
        }
        return;
      }
      HandlerDecisions decide = decisions;
      if (decide != null && ran.decision() instanceof SnoozeException snooze) {
        decide.snooze(job, snooze.delay(), actor.maxSnoozes());
        return; // a snooze is neither a success nor a failure of the job
      }
      Outcome outcome = ran.outcome();
      if (outcome.succeeded()) {
        listener.jobSucceeded(job.actor(), job.queue(), execution);
      } else {
        listener.jobFailed(job.actor(), job.queue(), execution);
      }
      if (decide != null && ran.decision() instanceof DiscardException discard) {
        Outcome unrecorded = decide.discard(job, discard, outcome);
        if (unrecorded == null) {
          return;
        }
        outcome = unrecorded;
      }
      completions.accept(new Completion(job, outcome));
    } finally {
      freeSlot.run();
    }
  }

  /**
   * The result as storable JSON; a result that is not one JSON value fails the attempt here, on the
   * handler's thread, rather than the completion statement of a whole batch.
   */
  private Outcome encoded(Object result) {
    String json = ResultText.sanitize(actor.codec().encode(result));
    String problem = JsonSyntax.problem(json);
    return problem == null
        ? Outcome.succeeded(json)
        : Outcome.failed(
            Outcome.INVALID_RESULT, "the handler's result is not valid JSON: " + problem);
  }

  @SuppressWarnings("InterruptedExceptionSwallowed") // the interrupt ends this job only: see exit()
  private Ran execute() {
    job.enter(Thread.currentThread());
    ScheduledFuture<?> armed = arm();
    try {
      Object result = InterceptedExecution.run(actor, job);
      return new Ran(result == null ? Outcome.succeeded(null) : encoded(result), null);
    } catch (SnoozeException | DiscardException decision) {
      LOG.debug("{}: the handler decided: {}", job, decision.toString());
      return new Ran(Outcome.failed(decision), decision);
    } catch (Throwable error) {
      LOG.debug("{} failed: {}", job, error.toString());
      return new Ran(Outcome.failed(error), null);
    } finally {
      if (armed != null) {
        armed.cancel(false);
      }
      job.exit();
    }
  }

  /** A6: arms the attempt's timeout, the job's own or else its actor's; null for none. */
  private @Nullable ScheduledFuture<?> arm() {
    AttemptTimer t = timer;
    if (t == null) {
      return null;
    }
    long own = job.attemptTimeoutMillis();
    long millis = own > 0 ? own : actor.attemptTimeout().map(Duration::toMillis).orElse(0L);
    return millis > 0 ? t.arm(millis, () -> timeOut(millis)) : null;
  }

  /** A6, on the timer's thread: fails the attempt if its handler is still inside the job. */
  private void timeOut(long millis) {
    StackTraceElement[] stack = job.handlerStack();
    if (!job.timeOut()) {
      return;
    }
    LOG.warn(
        "{} ran past its attempt timeout of {} ms: its handler was interrupted and the attempt"
            + " fails ({}); the job retries through its retry policy",
        job,
        millis,
        Outcome.ATTEMPT_TIMEOUT);
    listener.jobFailed(
        job.actor(), job.queue(), Duration.ofNanos(System.nanoTime() - startedNanos));
    completions.accept(new Completion(job, Outcome.timedOut(millis, job.attempt(), stack)));
  }
}
