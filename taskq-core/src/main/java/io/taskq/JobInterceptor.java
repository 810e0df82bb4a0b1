package io.taskq;

import org.jspecify.annotations.Nullable;

/**
 * Middleware around each attempt of a job (P6): tracing, metrics, logging context, tenancy, a
 * circuit breaker. Registered for every actor of a TaskQ ({@code TaskQ.Builder.intercept}) or for
 * one actor ({@link Actor.Builder#intercept(JobInterceptor)}).
 *
 * <pre>{@code
 * JobInterceptor mdc = execution -> {
 *   MDC.put("job", Long.toString(execution.context().jobId()));
 *   try {
 *     return execution.proceed();
 *   } finally {
 *     MDC.remove("job");
 *   }
 * };
 * }</pre>
 *
 * <p><b>The contract.</b>
 *
 * <ul>
 *   <li><b>Order.</b> The TaskQ's interceptors run outermost, in the order they were registered,
 *       then the actor's, in theirs; the innermost {@link Execution#proceed()} decodes the payload
 *       and calls the handler. So the first one registered sees the whole attempt, decoding
 *       included, and its {@code finally} runs last.
 *   <li><b>Thread.</b> All of them run on the handler's thread, inside the attempt: the lease is
 *       held, the attempt's time is counted, and the worker's shutdown grace applies to them as to
 *       the handler.
 *   <li><b>Proceeding.</b> {@link Execution#proceed()} runs the rest of the chain and returns its
 *       result; it may be called at most once (a second call throws {@link IllegalStateException}).
 *       Not calling it skips the handler: what the interceptor returns is then the attempt's
 *       result.
 *   <li><b>What they may change.</b> The result: what an interceptor returns is what the next one
 *       out sees, and the outermost one's return value is encoded by the actor's codec and stored.
 *       The outcome: an exception an interceptor throws (its own, or the one {@code proceed()}
 *       threw, or another) fails the attempt exactly as a handler's would, retried through the
 *       job's policy or, for a {@link NonRetryableException}, failed for good; swallowing the
 *       handler's exception and returning turns the attempt into a success. Not the payload, the
 *       job's identity or its options: the context and the payload text are read-only.
 *   <li><b>Cost.</b> An actor with no interceptor (and a TaskQ with none) runs its handler
 *       directly: no chain is built and nothing is allocated for it. Each registered interceptor
 *       costs one call per attempt; the chain object is one small allocation per attempt.
 *   <li>Implementations must be thread-safe: one instance runs on every handler thread at once.
 * </ul>
 */
@FunctionalInterface
public interface JobInterceptor {
  /**
   * Runs around one attempt.
   *
   * @param execution the attempt; {@link Execution#proceed()} runs the rest of the chain and the
   *     handler
   * @return the attempt's result (usually what {@code execution.proceed()} returned)
   * @throws Exception to fail the attempt
   */
  @Nullable Object intercept(Execution execution) throws Exception;

  /** One attempt, as an interceptor sees it. */
  interface Execution {
    /** {@return the job's identity, attempt, deadline and cancel flag: what the handler gets} */
    JobContext context();

    /**
     * {@return the payload's JSON text, as stored ({@code jsonb}'s rewrite of what was enqueued)}
     */
    String payloadJson();

    /**
     * Runs the rest of the chain: the next interceptors, then the payload's decoding and the
     * handler.
     *
     * @return their result
     * @throws Exception what they threw
     * @throws IllegalStateException when called a second time
     */
    @Nullable Object proceed() throws Exception;
  }
}
