package io.taskq.postgres.internal;

import io.taskq.spi.JobListener;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls the application's {@link JobListener} so that it can never fail an enqueue, a job or a feed
 * poll: an exception it throws is logged (WARN, with its stack trace, the first time; DEBUG after)
 * and dropped.
 */
public final class GuardedJobListener implements JobListener {
  private static final Logger LOG = LoggerFactory.getLogger(GuardedJobListener.class);

  private final JobListener delegate;
  private volatile boolean warned;

  private GuardedJobListener(JobListener delegate) {
    this.delegate = delegate;
  }

  /** {@code listener} guarded; {@link JobListener#NONE} and guarded listeners as they are. */
  public static JobListener of(JobListener listener) {
    Objects.requireNonNull(listener, "listener");
    if (listener == JobListener.NONE || listener instanceof GuardedJobListener) {
      return listener;
    }
    return new GuardedJobListener(listener);
  }

  /**
   * Reports one {@code jobsEnqueued} per (actor, queue) of {@code items}, in first-seen order.
   *
   * @param actor the actor of an item
   * @param queue the queue of an item
   */
  public static <T> void enqueued(
      JobListener listener, List<T> items, Function<T, String> actor, Function<T, String> queue) {
    if (listener == JobListener.NONE) {
      return;
    }
    Map<List<String>, Integer> counts = new LinkedHashMap<>();
    for (T item : items) {
      counts.merge(List.of(actor.apply(item), queue.apply(item)), 1, Integer::sum);
    }
    counts.forEach((key, n) -> listener.jobsEnqueued(key.get(0), key.get(1), n));
  }

  private void call(String signal, Consumer<JobListener> call) {
    try {
      call.accept(delegate);
    } catch (RuntimeException e) {
      if (!warned) {
        warned = true;
        LOG.warn(
            "job listener {} failed on {}; ignored (later failures log at DEBUG)",
            delegate,
            signal,
            e);
      } else {
        LOG.debug("job listener {} failed on {}; ignored", delegate, signal, e);
      }
    }
  }

  @Override
  public void jobsEnqueued(String actor, String queue, int count) {
    call("jobsEnqueued", l -> l.jobsEnqueued(actor, queue, count));
  }

  @Override
  public void jobStarted(String actor, String queue, Duration pickupLatency) {
    call("jobStarted", l -> l.jobStarted(actor, queue, pickupLatency));
  }

  @Override
  public void jobSucceeded(String actor, String queue, Duration execution) {
    call("jobSucceeded", l -> l.jobSucceeded(actor, queue, execution));
  }

  @Override
  public void jobFailed(String actor, String queue, Duration execution) {
    call("jobFailed", l -> l.jobFailed(actor, queue, execution));
  }

  @Override
  public void eventFeedLag(Duration lag) {
    call("eventFeedLag", l -> l.eventFeedLag(lag));
  }

  @Override
  public void jobRateLimited(String actor, String queue) {
    call("jobRateLimited", l -> l.jobRateLimited(actor, queue));
  }

  @Override
  public void writeFenced() {
    call("writeFenced", JobListener::writeFenced);
  }

  @Override
  public String toString() {
    return delegate.toString();
  }
}
