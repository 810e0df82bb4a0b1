package io.taskq.redis;

import io.taskq.progress.Progress;
import java.util.Objects;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One subscriber of a {@link RedisProgressStore}: a job, or every job ({@code jobId == null}). A
 * listener that throws is logged (under the store's name) and stays subscribed.
 */
final class ProgressListener {
  private static final Logger log = LoggerFactory.getLogger(RedisProgressStore.class);

  private final @Nullable Long jobId;
  private final Consumer<Progress> consumer;

  ProgressListener(@Nullable Long jobId, Consumer<Progress> consumer) {
    this.jobId = jobId;
    this.consumer = Objects.requireNonNull(consumer, "listener");
  }

  /** Hands {@code progress} to the consumer when it is about this listener's job. */
  void offer(Progress progress) {
    if (jobId != null && jobId != progress.jobId()) {
      return;
    }
    try {
      consumer.accept(progress);
    } catch (RuntimeException e) {
      log.warn("a progress listener threw; it stays subscribed", e);
    }
  }
}
