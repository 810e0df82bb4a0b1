package io.taskq.postgres.internal.execution;

import io.taskq.Actor;
import io.taskq.core.internal.JsonSyntax;
import io.taskq.spi.JobListener;
import java.time.Duration;
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
 */
final class JobRun<T> implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(JobRun.class);

  private final RunningJob job;
  private final Actor<T> actor;
  private final Consumer<Completion> completions;
  private final Runnable freeSlot;
  private final @Nullable RateLimitWait rateLimits;
  private final JobListener listener;

  JobRun(
      RunningJob job,
      Actor<T> actor,
      Consumer<Completion> completions,
      Runnable freeSlot,
      @Nullable RateLimitWait rateLimits,
      JobListener listener) {
    this.job = job;
    this.actor = actor;
    this.completions = completions;
    this.freeSlot = freeSlot;
    this.rateLimits = rateLimits;
    this.listener = listener;
  }

  @Override
  public void run() {
    try {
      RateLimitWait limits = rateLimits;
      if (limits != null && !limits.admit(job, actor)) {
        return; // handed back to wait for its rate limit (M5)
      }
      listener.jobStarted(job.actor(), job.queue(), job.pickupLatency());
      long started = System.nanoTime();
      Outcome outcome = execute();
      Duration execution = Duration.ofNanos(System.nanoTime() - started);
      if (outcome.succeeded()) {
        listener.jobSucceeded(job.actor(), job.queue(), execution);
      } else {
        listener.jobFailed(job.actor(), job.queue(), execution);
      }
      if (job.finish()) {
        completions.accept(new Completion(job, outcome));
      } else {
        LOG.debug("{} finished after its lease was released; outcome discarded", job);
      }
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
  private Outcome execute() {
    job.enter(Thread.currentThread());
    try {
      Object result = InterceptedExecution.run(actor, job);
      return result == null ? Outcome.succeeded(null) : encoded(result);
    } catch (Throwable error) {
      LOG.debug("{} failed: {}", job, error.toString());
      return Outcome.failed(error);
    } finally {
      job.exit();
    }
  }
}
