package io.taskq.postgres.internal;

import io.taskq.cron.Schedules;
import io.taskq.feed.ReclaimEventFeed;
import io.taskq.limits.PostgresSlidingWindow;
import io.taskq.progress.PostgresProgressStore;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How the TaskQ root makes the handles whose classes live in other public packages (K1): each such
 * class registers its package-private factory here when it is initialised, so that no public
 * builder or constructor is needed. Internal: only {@code TaskQ} calls it.
 */
public final class Handles {
  private static volatile @Nullable FeedFactory feeds;
  private static volatile @Nullable ProgressFactory progress;
  private static volatile @Nullable SlidingWindowFactory slidingWindows;
  private static volatile @Nullable SchedulesFactory schedules;

  private Handles() {}

  /** Called once, by {@code ReclaimEventFeed}'s static initialiser. */
  public static void registerFeeds(FeedFactory factory) {
    feeds = Objects.requireNonNull(factory, "factory");
  }

  /** Called once, by {@code Schedules}' static initialiser. */
  public static void registerSchedules(SchedulesFactory factory) {
    schedules = Objects.requireNonNull(factory, "factory");
  }

  /** Called once, by {@code PostgresProgressStore}'s static initialiser. */
  public static void registerProgress(ProgressFactory factory) {
    progress = Objects.requireNonNull(factory, "factory");
  }

  /** Called once, by {@code PostgresSlidingWindow}'s static initialiser. */
  public static void registerSlidingWindows(SlidingWindowFactory factory) {
    slidingWindows = Objects.requireNonNull(factory, "factory");
  }

  /** The progress store factory ({@code PostgresProgressStore} initialised first). */
  public static ProgressFactory progress() {
    initialise(PostgresProgressStore.class);
    return Objects.requireNonNull(progress, "PostgresProgressStore registered no factory");
  }

  /** The sliding-window factory ({@code PostgresSlidingWindow} initialised first). */
  public static SlidingWindowFactory slidingWindows() {
    initialise(PostgresSlidingWindow.class);
    return Objects.requireNonNull(slidingWindows, "PostgresSlidingWindow registered no factory");
  }

  /** The feed factory ({@code ReclaimEventFeed} initialised first). */
  public static FeedFactory feeds() {
    initialise(ReclaimEventFeed.class);
    return Objects.requireNonNull(feeds, "ReclaimEventFeed registered no factory");
  }

  /** The schedules factory ({@code Schedules} initialised first). */
  public static SchedulesFactory schedules() {
    initialise(Schedules.class);
    return Objects.requireNonNull(schedules, "Schedules registered no factory");
  }

  private static void initialise(Class<?> type) {
    try {
      Class.forName(type.getName(), true, type.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("cannot initialise " + type.getName(), e);
    }
  }
}
