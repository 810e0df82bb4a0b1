package io.taskq.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskq.TaskQConfig;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The per-worker registry of keyed rate limits: capped, idle names evicted, evictions drained. */
@Tag("S10")
class RateLimitRegistryTest {
  private final AtomicReference<Instant> now =
      new AtomicReference<>(Instant.parse("2030-01-01T00:00:00Z"));
  private final InstantSource clock = now::get;
  private final List<String> asked = new ArrayList<>();
  private final RateLimiter store =
      (name, permits) -> {
        asked.add(name);
        return Decision.allowed(7);
      };

  private RateLimitRegistry registry(int max) {
    return RateLimitRegistry.create(max, Duration.ofMinutes(10), clock, name -> store);
  }

  private void advance(Duration by) {
    now.updateAndGet(t -> t.plus(by));
  }

  @Test
  void tryAcquire_registersTheName_andAsksItsLimiter() {
    RateLimitRegistry registry = registry(3);

    assertThat(registry.tryAcquire("customer:1", 2)).isEqualTo(Decision.allowed(7));

    assertThat(asked).containsExactly("customer:1");
    assertThat(registry.contains("customer:1")).isTrue();
    assertThat(registry.size()).isEqualTo(1);
  }

  @Test
  void newNameBeyondTheCap_evictsTheLeastRecentlyUsed() {
    RateLimitRegistry registry = registry(2);
    registry.tryAcquire("a");
    registry.tryAcquire("b");
    registry.tryAcquire("a");

    registry.tryAcquire("c");

    assertThat(registry.size()).isEqualTo(2);
    assertThat(registry.contains("b")).as("least recently used").isFalse();
    assertThat(registry.pendingEvictions()).containsExactly("b");
  }

  @Test
  void evictIdle_evictsOnlyNamesUnusedForIdleAfter() {
    RateLimitRegistry registry = registry(10);
    registry.tryAcquire("old");
    advance(Duration.ofMinutes(6));
    registry.tryAcquire("recent");
    advance(Duration.ofMinutes(4));

    assertThat(registry.evictIdle()).isEqualTo(1);

    assertThat(registry.contains("old")).isFalse();
    assertThat(registry.contains("recent")).isTrue();
    assertThat(registry.pendingEvictions()).containsExactly("old");
  }

  @Test
  void touchingAName_keepsItFromIdleEviction() {
    RateLimitRegistry registry = registry(10);
    registry.tryAcquire("busy");
    advance(Duration.ofMinutes(9));
    registry.tryAcquire("busy");
    advance(Duration.ofMinutes(9));

    assertThat(registry.evictIdle()).isZero();
    assertThat(registry.contains("busy")).isTrue();
  }

  @Test
  void drainEvicted_handsOverThePendingNamesOnce() {
    RateLimitRegistry registry = registry(10);
    registry.tryAcquire("x");
    registry.tryAcquire("y");
    advance(Duration.ofMinutes(10));
    registry.evictIdle();
    List<List<String>> drained = new ArrayList<>();

    assertThat(registry.drainEvicted(drained::add)).isEqualTo(2);
    assertThat(registry.drainEvicted(drained::add)).isZero();

    assertThat(drained).containsExactly(List.of("x", "y"));
    assertThat(registry.pendingEvictions()).isEmpty();
  }

  @Test
  void drainWithNothingPending_neverCallsTheReclaim() {
    RateLimitRegistry registry = registry(10);
    registry.tryAcquire("kept");

    int drained =
        registry.drainEvicted(
            names -> {
              throw new AssertionError("borrowed a connection for nothing: " + names);
            });

    assertThat(drained).isZero();
  }

  @Test
  void failedDrain_keepsTheNamesPending_forTheNextTick() {
    RateLimitRegistry registry = registry(10);
    registry.tryAcquire("x");
    advance(Duration.ofMinutes(10));
    registry.evictIdle();

    assertThatThrownBy(
            () ->
                registry.drainEvicted(
                    names -> {
                      throw new IllegalStateException("database down");
                    }))
        .hasMessage("database down");

    assertThat(registry.pendingEvictions()).containsExactly("x");
  }

  @Test
  void nameUsedAgainBeforeTheDrain_leavesThePendingSet() {
    RateLimitRegistry registry = registry(10);
    registry.tryAcquire("back");
    advance(Duration.ofMinutes(10));
    registry.evictIdle();

    registry.tryAcquire("back");

    assertThat(registry.pendingEvictions()).isEmpty();
    assertThat(registry.contains("back")).isTrue();
  }

  @Test
  @Tag("M7")
  void processLocalNames_areEvictedButNeverReachTheDrain() {
    RateLimitRegistry registry = registry(10);
    registry.tryAcquire("taskq:global:queue:default");
    registry.tryAcquire("customer:9");
    advance(Duration.ofMinutes(10));

    assertThat(registry.evictIdle()).isEqualTo(2);

    assertThat(registry.pendingEvictions()).containsExactly("customer:9");
  }

  @Test
  void pendingSet_isCappedToo_oldestDroppedFirst() {
    RateLimitRegistry registry = registry(2);
    for (String name : List.of("a", "b", "c", "d", "e")) {
      registry.tryAcquire(name);
    }

    assertThat(registry.size()).isEqualTo(2);
    assertThat(registry.pendingEvictions()).containsExactly("b", "c");
  }

  @Test
  @Tag("F6")
  void badNames_areRefusedBeforeRegistration() {
    RateLimitRegistry registry = registry(2);

    assertThatThrownBy(() -> registry.tryAcquire("a\u0000b"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("rate limit name contains a NUL character");
    assertThatThrownBy(() -> registry.tryAcquire(""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("rate limit name must not be empty");
    assertThat(registry.size()).isZero();
    assertThat(asked).isEmpty();
  }

  @Test
  void fromConfig_isCappedByMaxKeyedRateLimits() {
    TaskQConfig config = TaskQConfig.builder().maxKeyedRateLimits(3).build();
    RateLimitRegistry registry = RateLimitRegistry.create(config, Duration.ofMinutes(1), store);

    for (int i = 0; i < 10; i++) {
      registry.tryAcquire("k" + i);
    }

    assertThat(registry.size()).isEqualTo(3);
  }

  @Test
  void badSettings_areRefusedWithTheirValue() {
    assertThatThrownBy(() -> RateLimitRegistry.create(0, Duration.ofMinutes(1), clock, n -> store))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxEntries must be in 1..2147483647, was 0");
    assertThatThrownBy(() -> RateLimitRegistry.create(1, Duration.ZERO, clock, n -> store))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("idleAfter must be positive, was PT0S");
  }
}
