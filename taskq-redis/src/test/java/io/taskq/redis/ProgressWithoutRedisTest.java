package io.taskq.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.taskq.SchemaName;
import io.taskq.progress.Progress;
import io.taskq.progress.ProgressStore;
import io.taskq.progress.ProgressSubscription;
import io.taskq.progress.ProgressUnavailableException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Progress without Redis (D14): a report never fails the job (it goes to the fallback store, or is
 * dropped and counted); reads use the fallback or say plainly that progress is unavailable.
 */
@Tag("M5")
class ProgressWithoutRedisTest {
  private static final Duration NO_HANG = Duration.ofSeconds(15);
  private static RedisConnector unreachable;

  @BeforeAll
  static void connect() {
    unreachable =
        RedisConnector.create(
            "redis://:s3cret@127.0.0.1:1", Duration.ofMillis(300), SchemaName.of("nowhere"));
  }

  @AfterAll
  static void close() {
    unreachable.close();
  }

  @Test
  void withoutFallback_reportsAreDroppedAndCounted_readsThrow() {
    try (RedisProgressStore store = RedisProgressStore.builder(unreachable).build()) {
      assertTimeoutPreemptively(
          NO_HANG,
          () -> {
            store.report(1, 0.5, "half");
            store.report(1, 0.6, "more");
          });

      assertThat(store.droppedReports()).isEqualTo(2);
      assertThatThrownBy(() -> store.latest(1))
          .isInstanceOf(ProgressUnavailableException.class)
          .hasMessageContaining("the latest progress of job 1")
          .hasMessageContaining("127.0.0.1:1")
          .hasMessageNotContaining("s3cret");
      assertThatThrownBy(() -> store.subscribeAll(p -> {}))
          .isInstanceOf(ProgressUnavailableException.class);
    }
  }

  @Test
  void withFallback_everythingGoesToTheFallback() {
    InMemoryProgress fallback = new InMemoryProgress();
    try (RedisProgressStore store =
        RedisProgressStore.builder(unreachable).fallback(fallback).build()) {
      store.report(2, 0.25, "a quarter", "{\"n\":1}");

      assertThat(store.droppedReports()).isZero();
      assertThat(store.latest(2)).map(Progress::message).hasValue("a quarter");
      assertThat(store.latest(2)).flatMap(Progress::detail).hasValue("{\"n\":1}");
      ProgressSubscription subscription = store.subscribe(2, p -> {});
      assertThat(fallback.subscribers).hasSize(1);
      subscription.close();
      assertThat(fallback.subscribers).isEmpty();
    }
  }

  /** A fallback store in memory, standing in for the PostgreSQL one. */
  static final class InMemoryProgress implements ProgressStore {
    final Map<Long, Progress> latest = new HashMap<>();
    final List<Consumer<Progress>> subscribers = new ArrayList<>();

    @Override
    public void report(long jobId, double fraction, String message, @Nullable String detailJson) {
      latest.put(jobId, new Progress(jobId, fraction, message, detailJson, Instant.now()));
    }

    @Override
    public Optional<Progress> latest(long jobId) {
      return Optional.ofNullable(latest.get(jobId));
    }

    @Override
    public ProgressSubscription subscribe(long jobId, Consumer<Progress> listener) {
      return subscribeAll(listener);
    }

    @Override
    public ProgressSubscription subscribeAll(Consumer<Progress> listener) {
      subscribers.add(listener);
      return () -> subscribers.remove(listener);
    }
  }
}
