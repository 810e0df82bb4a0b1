package io.taskq.progress;

import java.util.Optional;
import java.util.function.Consumer;

/**
 * Reads and follows job progress within one schema (M5, M6: another schema's progress is never
 * seen).
 *
 * <p>Subscriptions are a hint, never the only path (D13): a notification can be missed (a
 * reconnect, a slow listener), so a client that must not miss the final state also polls {@link
 * #latest(long)}. Listeners run on the store's own thread, one report at a time, and must not block
 * for long; an exception thrown by a listener is logged and does not end the subscription.
 */
public interface ProgressStore extends ProgressReporter {
  /**
   * {@return the latest progress of job {@code jobId}; empty when none was reported or it expired}
   *
   * @param jobId the job's id
   * @throws ProgressUnavailableException when the store cannot answer within its timeout
   */
  Optional<Progress> latest(long jobId);

  /**
   * Calls {@code listener} with each report of job {@code jobId} from now on, until the returned
   * subscription is closed.
   *
   * @param jobId the job's id
   * @param listener called with each report, on the store's thread
   * @return the subscription; close it to stop
   * @throws ProgressUnavailableException when the subscription cannot be set up within the timeout
   */
  ProgressSubscription subscribe(long jobId, Consumer<Progress> listener);

  /**
   * Calls {@code listener} with each report of every job of the schema from now on, until the
   * returned subscription is closed.
   *
   * @param listener called with each report, on the store's thread
   * @return the subscription; close it to stop
   * @throws ProgressUnavailableException when the subscription cannot be set up within the timeout
   */
  ProgressSubscription subscribeAll(Consumer<Progress> listener);
}
