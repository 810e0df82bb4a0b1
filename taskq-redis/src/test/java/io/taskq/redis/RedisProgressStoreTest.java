package io.taskq.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.taskq.progress.Progress;
import io.taskq.progress.ProgressSubscription;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Job progress in Redis: latest value with a TTL, and fan-out to job and schema subscribers. */
@TaskQTest
@Tag("M5")
class RedisProgressStoreTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  private static RedisConnector connector;
  private static RawRedis raw;
  private static RedisProgressStore store;

  @BeforeAll
  static void connect(TestServices services) {
    connector = RawRedis.connector(services);
    raw = RawRedis.to(services);
    store = RedisProgressStore.builder(connector).ttl(Duration.ofMinutes(5)).build();
  }

  @AfterAll
  static void close() {
    store.close();
    raw.close();
    connector.close();
  }

  @Test
  void latest_returnsTheLastReport_withItsDetailAndTheServersTime() {
    Instant before = Instant.now().minusSeconds(60);
    store.report(1, 0.1, "starting");
    store.report(1, 0.75, "copied 3 of 4 \"files\"", "{\"files\":[1,2,3],\"of\":4}");

    Progress latest = store.latest(1).orElseThrow();

    assertThat(latest.jobId()).isEqualTo(1);
    assertThat(latest.fraction()).isEqualTo(0.75);
    assertThat(latest.message()).isEqualTo("copied 3 of 4 \"files\"");
    assertThat(latest.detail()).hasValue("{\"files\":[1,2,3],\"of\":4}");
    assertThat(latest.reportedAt()).isAfter(before).isBefore(Instant.now().plusSeconds(60));
  }

  @Test
  void reportWithoutDetail_replacesAnEarlierDetail() {
    store.report(2, 0.5, "half", "{\"step\":1}");
    store.report(2, 1.0, "done");

    assertThat(store.latest(2).orElseThrow().detail()).isEmpty();
  }

  @Test
  void latest_ofAJobThatNeverReported_isEmpty() {
    assertThat(store.latest(999_999)).isEmpty();
  }

  @Test
  void eachReport_carriesTheStoresTtl(TestServices services) {
    store.report(3, 0.2, "ttl");

    long ttl = raw.sync().pttl("taskq:" + services.schema() + ":progress:3");
    assertThat(ttl).isPositive().isLessThanOrEqualTo(Duration.ofMinutes(5).toMillis());
  }

  @Test
  void shortTtl_letsTheLatestValueExpire() {
    try (RedisProgressStore brief =
        RedisProgressStore.builder(connector).ttl(Duration.ofMillis(200)).build()) {
      brief.report(4, 0.3, "soon gone");
      assertThat(brief.latest(4)).isPresent();
      await().atMost(WAIT).until(() -> brief.latest(4).isEmpty());
    }
  }

  @Test
  void jobSubscriber_hearsOnlyItsJob_andAllSubscriber_hearsEveryJob() {
    Queue<Progress> job10 = new ConcurrentLinkedQueue<>();
    Queue<Progress> all = new ConcurrentLinkedQueue<>();
    List<ProgressSubscription> open =
        List.of(store.subscribe(10, job10::add), store.subscribeAll(all::add));
    try {
      store.report(11, 0.5, "other job");
      store.report(10, 0.5, "mine", "{\"k\":true}");
      store.report(11, 1.0, "other job done");

      await().atMost(WAIT).until(() -> all.size() == 3);
      assertThat(all).extracting(Progress::jobId).containsExactly(11L, 10L, 11L);
      assertThat(job10).hasSize(1);
      Progress heard = job10.peek();
      assertThat(heard.message()).isEqualTo("mine");
      assertThat(heard.detailJson()).isEqualTo("{\"k\":true}");
      assertThat(heard).isEqualTo(store.latest(10).orElseThrow());
    } finally {
      open.forEach(ProgressSubscription::close);
    }
  }

  @Test
  void closedSubscription_hearsNothingMore() {
    Queue<Progress> closedOne = new ConcurrentLinkedQueue<>();
    Queue<Progress> stillOpen = new ConcurrentLinkedQueue<>();
    ProgressSubscription closing = store.subscribe(20, closedOne::add);
    List<ProgressSubscription> open = List.of(store.subscribe(20, stillOpen::add));
    try {
      store.report(20, 0.1, "first");
      await().atMost(WAIT).until(() -> closedOne.size() == 1 && stillOpen.size() == 1);

      closing.close();
      closing.close();
      store.report(20, 0.2, "second");
      await().atMost(WAIT).until(() -> stillOpen.size() == 2);
      assertThat(closedOne).extracting(Progress::message).containsExactly("first");
    } finally {
      open.forEach(ProgressSubscription::close);
    }
  }

  @Test
  void throwingListener_staysSubscribed_andOthersStillHear() {
    Queue<Progress> heard = new ConcurrentLinkedQueue<>();
    List<ProgressSubscription> open =
        List.of(
            store.subscribe(
                30,
                p -> {
                  heard.add(p);
                  throw new IllegalStateException("listener bug");
                }),
            store.subscribe(30, heard::add));
    try {
      store.report(30, 0.1, "a");
      store.report(30, 0.2, "b");

      await().atMost(WAIT).until(() -> heard.size() == 4);
      assertThat(heard).extracting(Progress::message).containsExactly("a", "a", "b", "b");
    } finally {
      open.forEach(ProgressSubscription::close);
    }
  }

  @Test
  void foreignMessageOnTheChannel_isIgnored(TestServices services) {
    Queue<Progress> all = new ConcurrentLinkedQueue<>();
    List<ProgressSubscription> open = List.of(store.subscribeAll(all::add));
    try {
      raw.sync().publish("taskq:" + services.schema() + ":progress", "{\"not\":\"ours\"}");
      store.report(40, 0.4, "ours");

      await().atMost(WAIT).until(() -> !all.isEmpty());
      assertThat(all).extracting(Progress::jobId).containsExactly(40L);
    } finally {
      open.forEach(ProgressSubscription::close);
    }
  }

  @Test
  @Tag("F6")
  void invalidReports_areRefusedBeforeReachingRedis() {
    assertThatThrownBy(() -> store.report(50, 1.5, "too far"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("fraction must be in 0.0..1.0, was 1.5");
    assertThatThrownBy(() -> store.report(50, Double.NaN, "nan"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("fraction");
    assertThatThrownBy(() -> store.report(50, 0.5, "x".repeat(513)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at most 512 chars, was 513");
    assertThatThrownBy(() -> store.report(50, 0.5, "nul\u0000here"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("progress message contains a NUL");
    assertThatThrownBy(() -> store.report(50, 0.5, "ok", "{\"a\":"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("progress detail is not valid JSON");
    assertThatThrownBy(() -> store.report(50, 0.5, "ok", "{\"a\":\"\\u0000\"}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("NUL");
    assertThatThrownBy(() -> store.report(0, 0.5, "ok"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("job id must be positive, was 0");
    assertThat(store.latest(50)).isEmpty();
  }

  @Test
  void ttlOutsideItsRange_isRefusedByTheBuilder() {
    assertThatThrownBy(() -> RedisProgressStore.builder(connector).ttl(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("progress ttl must be in 1ms..366 days, was PT0S");
  }
}
