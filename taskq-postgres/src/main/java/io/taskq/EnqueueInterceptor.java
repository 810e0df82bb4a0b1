package io.taskq;

import java.util.List;

/**
 * Middleware around each enqueue through a {@link JobsClient} (P6): the place to stamp the
 * enqueueing side's context on the jobs (trace context, tenancy, the caller's identity) as labels,
 * and to time or trace the insert. Registered on {@code TaskQ.Builder.interceptEnqueue} or {@link
 * JobsClient.Builder#interceptEnqueue(EnqueueInterceptor)}; {@code docs/middleware.md} states the
 * contract.
 *
 * <pre>{@code
 * EnqueueInterceptor tenant = enqueue -> {
 *   List<JobRequest> stamped = new ArrayList<>();
 *   for (JobRequest r : enqueue.requests()) {
 *     Map<String, String> labels = new HashMap<>(r.labels());
 *     labels.put("tenant", "acme");
 *     stamped.add(r.toBuilder().labels(labels).build());
 *   }
 *   return enqueue.proceed(stamped);
 * };
 * }</pre>
 *
 * <p><b>The contract.</b>
 *
 * <ul>
 *   <li><b>Where.</b> Around every path that enqueues, one call per call (not per job), in the
 *       enqueueing thread: {@code enqueue} and {@code enqueueAll} ({@link Kind#JOBS}), on both the
 *       client's own connection and the caller's; {@code enqueueBatch} ({@link Kind#BATCH}), its
 *       members and its completion hook's template together; and each cron tick's fires ({@link
 *       Kind#CRON}), on the cron loop's thread inside the tick's transaction, with the interceptors
 *       of the {@code TaskQ} running the tick. {@link Enqueue#kind()} tells them apart.
 *   <li><b>Order.</b> In the order registered: the first one registered is outermost.
 *   <li><b>Proceeding.</b> {@link Enqueue#proceed(List)} runs the rest of the chain and then the
 *       insert (validation, statements and, on the client's own connection, the commit), and
 *       returns the ids in the order of the requests it was given (for a batch with a completion
 *       hook, the members' ids only: the hook's job is inserted when the batch completes). It may
 *       be called at most once; the list must have as many requests as {@link Enqueue#requests()},
 *       for the same actors.
 *   <li><b>What they may change.</b> Each request's options through {@link JobRequest#toBuilder()},
 *       labels above all; not the number of jobs or their actors. A changed request is checked
 *       again as the path checks its input (a hook template that gains a run time is refused). What
 *       an interceptor throws fails the enqueue (nothing was inserted if it threw before
 *       proceeding); on a cron fire it rolls the whole tick back, so every schedule stays due and
 *       the next tick retries.
 *   <li><b>Cost.</b> A client without enqueue interceptors inserts directly: nothing is built or
 *       allocated for them.
 *   <li>Implementations must be thread-safe: one instance runs for every enqueueing thread.
 * </ul>
 */
@FunctionalInterface
public interface EnqueueInterceptor {
  /**
   * Runs around one enqueue.
   *
   * @param enqueue the enqueue; {@link Enqueue#proceed(List)} runs the rest of the chain and the
   *     insert
   * @return the ids (usually what {@code enqueue.proceed(...)} returned)
   */
  List<Long> intercept(Enqueue enqueue);

  /** Which path an enqueue takes. */
  enum Kind {
    /** {@code JobsClient.enqueue} or {@code enqueueAll}: one id per request. */
    JOBS,
    /**
     * {@code JobsClient.enqueueBatch}: the members in order, then the completion hook's template
     * when the batch has one; the ids returned are the members'. What an interceptor stamps on the
     * hook's template (labels) is on the hook's job when the batch completes.
     */
    BATCH,
    /**
     * The jobs one cron tick fires, inserted in the tick's transaction by the maintenance leader's
     * cron loop ({@link Enqueue#onCallerConnection()} is true: they commit with the tick).
     */
    CRON
  }

  /** One enqueue, as an interceptor sees it. */
  interface Enqueue {
    /** {@return the path this enqueue takes} */
    Kind kind();

    /**
     * {@return the jobs to enqueue, in order, with their actors' queue and retry policy filled in
     * where the requests named none; for a {@link Kind#BATCH}, the completion hook's template comes
     * last when the batch has one}
     */
    List<JobRequest> requests();

    /**
     * {@return true when the jobs are inserted on the caller's connection (and commit with the
     * caller's transaction, or with the cron tick's), false when the client commits them on its
     * own}
     */
    boolean onCallerConnection();

    /**
     * Runs the rest of the chain and the insert.
     *
     * @param requests the jobs to enqueue: {@link #requests()}, or a changed copy of the same size
     *     and actors
     * @return the ids in the order of {@code requests} (for a batch with a hook, the members' ids)
     * @throws IllegalArgumentException when {@code requests} differs in size or actors, or a
     *     changed request breaks a rule of its path
     * @throws IllegalStateException when called a second time
     */
    List<Long> proceed(List<JobRequest> requests);
  }
}
