package io.taskq.postgres.internal.execution;

import io.taskq.Actor;
import io.taskq.JobContext;
import io.taskq.JobInterceptor;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The hook of handler middleware (P6) into an attempt: decode and handle directly when the actor
 * has no interceptor (no chain built, nothing allocated), else run its interceptors, outermost
 * first, around the decode and the handler. {@link JobInterceptor} states the contract kept here.
 * Each interceptor gets an execution of its own, so each may proceed once, whatever the others do.
 */
final class InterceptedExecution<T> implements JobInterceptor.Execution {
  private final Actor<T> actor;
  private final RunningJob job;
  private final List<JobInterceptor> chain;
  private final int next;
  private boolean proceeded;

  /** The execution handed to interceptor {@code next - 1}: proceeding runs {@code next} on. */
  private InterceptedExecution(
      Actor<T> actor, RunningJob job, List<JobInterceptor> chain, int next) {
    this.actor = actor;
    this.job = job;
    this.chain = chain;
    this.next = next;
  }

  /** Runs one attempt of {@code job}: its interceptors, the payload's decoding and the handler. */
  static <T> @Nullable Object run(Actor<T> actor, RunningJob job) throws Exception {
    List<JobInterceptor> chain = actor.interceptors();
    if (chain.isEmpty()) {
      return handle(actor, job);
    }
    return chain.get(0).intercept(new InterceptedExecution<>(actor, job, chain, 1));
  }

  private static <T> @Nullable Object handle(Actor<T> actor, RunningJob job) throws Exception {
    T payload = actor.codec().decode(job.payload());
    return actor.handler().handle(payload, job);
  }

  @Override
  public JobContext context() {
    return job;
  }

  @Override
  public String payloadJson() {
    return job.payload();
  }

  @Override
  public @Nullable Object proceed() throws Exception {
    if (proceeded) {
      throw new IllegalStateException(
          "interceptor "
              + chain.get(next - 1)
              + " of actor '"
              + actor.name()
              + "' called proceed() twice for "
              + job);
    }
    proceeded = true;
    if (next < chain.size()) {
      return chain.get(next).intercept(new InterceptedExecution<>(actor, job, chain, next + 1));
    }
    return handle(actor, job);
  }
}
