package io.taskq.dashboard.internal;

import io.taskq.TaskQ;
import io.taskq.operations.ActorInfo;
import io.taskq.operations.Pause;
import io.taskq.operations.PauseTarget;
import io.taskq.operations.QueueInfo;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The queues and actors with their job counts, as the overview, queues and actors pages show them,
 * read off the request path (W1: pages stay fast at millions of jobs). Counting jobs per status,
 * queue and actor is an index-only scan of the whole counts index, about 150 ms at 1 000 000 jobs
 * on two cores; so a page shows the last reading and, when it is older than {@link #FRESH}, asks
 * for a new one on a background thread (one at a time, whoever asks: many open dashboards cost one
 * reading per period, and none while nobody looks). A reading older than {@link #MAX_STALE}, the
 * first one, and the first after an action ({@link #invalidate}) are made on the request instead,
 * so a page never shows counts older than that and an action's effect shows at once. What is paused
 * is read on every request (a handful of rows): a pause shows at once.
 */
final class Inventory {
  private static final Logger LOG = LoggerFactory.getLogger(Inventory.class);

  /** How old a reading may be before a page asks for a new one in the background. */
  static final Duration FRESH = Duration.ofSeconds(5);

  /** How old a reading may be before a page waits for a new one. */
  static final Duration MAX_STALE = Duration.ofSeconds(60);

  private final TaskQ taskq;
  private final Reading<List<QueueInfo>> queues;
  private final Reading<List<ActorInfo>> actors;

  Inventory(TaskQ taskq, InstantSource clock, Executor background) {
    this.taskq = taskq;
    this.queues = new Reading<>(() -> taskq.operations().queues(), clock, background);
    this.actors = new Reading<>(() -> taskq.operations().actors(), clock, background);
  }

  /** The queues with their counts (at most {@link #MAX_STALE} old), and when they were read. */
  Snapshot<List<QueueInfo>> queues() {
    return queues.get();
  }

  /** The actors with their counts (at most {@link #MAX_STALE} old), and when they were read. */
  Snapshot<List<ActorInfo>> actors() {
    return actors.get();
  }

  /** What is paused now: the queues ({@code *} for all) and the actors. */
  Paused paused() {
    Set<String> pausedQueues = new HashSet<>();
    Set<String> pausedActors = new HashSet<>();
    for (Pause p : taskq.operations().paused()) {
      (p.target().kind() == PauseTarget.Kind.QUEUE ? pausedQueues : pausedActors)
          .add(p.target().name());
    }
    return new Paused(pausedQueues, pausedActors);
  }

  /** After an action: the next page reads the counts anew, on its request. */
  void invalidate() {
    queues.invalidate();
    actors.invalidate();
  }

  /** One value read at most once per {@link #FRESH} period, in the background when possible. */
  private static final class Reading<T> {
    private final Supplier<T> read;
    private final InstantSource clock;
    private final Executor background;
    private final AtomicBoolean refreshing = new AtomicBoolean();
    private volatile @Nullable Snapshot<T> last;

    Reading(Supplier<T> read, InstantSource clock, Executor background) {
      this.read = read;
      this.clock = clock;
      this.background = background;
    }

    Snapshot<T> get() {
      Snapshot<T> s = last;
      Instant now = clock.instant();
      if (s == null || s.readAt().plus(MAX_STALE).isBefore(now)) {
        return readNow();
      }
      if (s.readAt().plus(FRESH).isBefore(now) && refreshing.compareAndSet(false, true)) {
        refreshInBackground();
      }
      return s;
    }

    /** Reads anew on the background executor; the caller set {@code refreshing}, this clears it. */
    private void refreshInBackground() {
      try {
        background.execute(
            () -> {
              try {
                readNow();
              } catch (RuntimeException e) {
                LOG.warn("TaskQ dashboard: reading the counts failed: {}", e.toString());
              } finally {
                refreshing.set(false);
              }
            });
      } catch (RuntimeException e) {
        refreshing.set(false);
      }
    }

    private Snapshot<T> readNow() {
      Instant at = clock.instant();
      Snapshot<T> fresh = new Snapshot<>(read.get(), at);
      last = fresh;
      return fresh;
    }

    void invalidate() {
      last = null;
    }
  }
}
