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
 *   <li><b>Where.</b> Around {@code enqueue} and {@code enqueueAll}, on both the client's own
 *       connection and the caller's, in the enqueueing thread; one call per {@code enqueue} or
 *       {@code enqueueAll} call (not per job). Batches ({@code enqueueBatch}) and cron fires do not
 *       pass through it.
 *   <li><b>Order.</b> In the order registered: the first one registered is outermost.
 *   <li><b>Proceeding.</b> {@link Enqueue#proceed(List)} runs the rest of the chain and then the
 *       insert (validation, statements and, on the client's own connection, the commit), and
 *       returns the ids in the order of the requests it was given. It may be called at most once;
 *       the list must have as many requests as {@link Enqueue#requests()}, for the same actors.
 *   <li><b>What they may change.</b> Each request's options through {@link JobRequest#toBuilder()},
 *       labels above all; not the number of jobs or their actors. What an interceptor throws fails
 *       the enqueue (nothing was inserted if it threw before proceeding).
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

  /** One enqueue, as an interceptor sees it. */
  interface Enqueue {
    /**
     * {@return the jobs to enqueue, in order, with their actors' queue and retry policy filled in
     * where the requests named none}
     */
    List<JobRequest> requests();

    /**
     * {@return true when the jobs are inserted on the caller's connection (and commit with the
     * caller's transaction), false when the client commits them on its own}
     */
    boolean onCallerConnection();

    /**
     * Runs the rest of the chain and the insert.
     *
     * @param requests the jobs to enqueue: {@link #requests()}, or a changed copy of the same size
     *     and actors
     * @return the ids in the order of {@code requests}
     * @throws IllegalArgumentException when {@code requests} differs in size or actors
     * @throws IllegalStateException when called a second time
     */
    List<Long> proceed(List<JobRequest> requests);
  }
}
