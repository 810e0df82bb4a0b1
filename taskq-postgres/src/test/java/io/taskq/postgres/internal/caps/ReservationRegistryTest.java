package io.taskq.postgres.internal.caps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** One worker's bounded reservation registry (S10) and its process-local queue names (M7). */
@Tag("S10")
class ReservationRegistryTest {
  private final AtomicReference<Instant> now =
      new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));
  private final InstantSource clock = now::get;

  private void advance(Duration d) {
    now.updateAndGet(t -> t.plus(d));
  }

  private static List<Scope> keys(String... keys) {
    List<Scope> scopes = new ArrayList<>();
    for (String k : keys) {
      scopes.add(Scope.key("send", k));
    }
    return scopes;
  }

  @Test
  void beyondItsCap_theLeastRecentlyUsedScopeIsEvicted_andWaitsForTheDrain() {
    ReservationRegistry registry = new ReservationRegistry(3, Duration.ofMinutes(1), clock);
    registry.touch(keys("a", "b", "c"));
    registry.touch(keys("a")); // b is now the least recently used
    registry.touch(keys("d"));
    assertThat(registry.size()).isEqualTo(3);
    assertThat(registry.registryNames()).containsExactly("key:send:c", "key:send:a", "key:send:d");
    assertThat(registry.pendingEvictions()).containsExactly("send:b");
  }

  @Test
  void evictIdle_evictsOnlyScopesUnusedForTheIdleTime() {
    ReservationRegistry registry = new ReservationRegistry(100, Duration.ofSeconds(30), clock);
    registry.touch(keys("old"));
    advance(Duration.ofSeconds(20));
    registry.touch(keys("recent"));
    advance(Duration.ofSeconds(10));
    assertThat(registry.evictIdle()).isEqualTo(1);
    assertThat(registry.registryNames()).containsExactly("key:send:recent");
    assertThat(registry.pendingEvictions()).containsExactly("send:old");
  }

  @Test
  void aScopeUsedAgainBeforeTheDrain_leavesThePendingSet() throws Exception {
    ReservationRegistry registry = new ReservationRegistry(1, Duration.ofMinutes(1), clock);
    registry.touch(keys("a"));
    registry.touch(keys("b"));
    assertThat(registry.pendingEvictions()).containsExactly("send:a");
    registry.touch(keys("a"));
    assertThat(registry.pendingEvictions()).containsExactly("send:b");
  }

  @Test
  void withNothingPending_theDrainIsNotCalled() throws Exception {
    ReservationRegistry registry = new ReservationRegistry(10, Duration.ofMinutes(1), clock);
    registry.touch(keys("a"));
    List<List<String>> calls = new ArrayList<>();
    ReservationRegistry.Drain record =
        names -> {
          calls.add(names);
          return List.of();
        };
    assertThat(registry.drainEvicted(record)).isZero();
    assertThat(calls).isEmpty();
  }

  @Test
  void theDrainReceivesThePendingNamesOnce_andAFailedDrainKeepsThem() throws Exception {
    ReservationRegistry registry = new ReservationRegistry(10, Duration.ofSeconds(1), clock);
    registry.touch(keys("a", "b"));
    advance(Duration.ofSeconds(2));
    registry.evictIdle();
    assertThatThrownBy(
            () ->
                registry.drainEvicted(
                    names -> {
                      throw new SQLException("database down");
                    }))
        .isInstanceOf(SQLException.class);
    assertThat(registry.pendingEvictions()).containsExactly("send:a", "send:b");
    List<List<String>> calls = new ArrayList<>();
    ReservationRegistry.Drain record =
        names -> {
          calls.add(names);
          return List.of();
        };
    assertThat(registry.drainEvicted(record)).isEqualTo(2);
    assertThat(calls).containsExactly(List.of("send:a", "send:b"));
    assertThat(registry.drainEvicted(record)).isZero();
    assertThat(calls).hasSize(1);
  }

  @Test
  void namesTheDrainCouldNotReclaimYet_stayPendingForTheNextTick() throws Exception {
    ReservationRegistry registry = new ReservationRegistry(2, Duration.ofMinutes(1), clock);
    registry.touch(keys("busy", "idle", "now", "later"));
    assertThat(registry.drainEvicted(names -> List.of("send:busy"))).isEqualTo(2);
    assertThat(registry.pendingEvictions()).containsExactly("send:busy");
    assertThat(registry.drainEvicted(names -> List.of())).isEqualTo(1);
    assertThat(registry.pendingEvictions()).isEmpty();
  }

  @Test
  void thePendingSetIsCappedToo_atTwiceTheRegistry_oldestDroppedFirst() {
    ReservationRegistry registry = new ReservationRegistry(2, Duration.ofMinutes(1), clock);
    registry.touch(keys("a", "b", "c", "d", "e", "f", "g"));
    assertThat(registry.size()).isEqualTo(2);
    assertThat(registry.pendingEvictions()).containsExactly("send:b", "send:c", "send:d", "send:e");
  }

  /**
   * ConcurrencyCapsTest's timeout at load 21: six keys through a registry of four, the drain's tick
   * late (or the first two keys' jobs still holding their rows at it), so one tick saw the two
   * cap-evicted names and the whole registry going idle together. A pending cap of the registry's
   * size dropped the two oldest names there, and without a leader nothing deleted their rows.
   */
  @Test
  void aRegistryGoingIdle_pushesOutNoNameTheCapEvictedBeforeTheDrainRan() throws Exception {
    ReservationRegistry registry = new ReservationRegistry(4, Duration.ofMillis(300), clock);
    registry.touch(keys("k0", "k1", "k2", "k3", "k4", "k5"));
    assertThat(registry.pendingEvictions()).containsExactly("send:k0", "send:k1");
    // The first tick finds k0 and k1 still held by this worker's running jobs: kept pending.
    assertThat(registry.drainEvicted(names -> names)).isEqualTo(2);
    advance(Duration.ofMillis(300));
    assertThat(registry.evictIdle()).isEqualTo(4);

    List<String> handed = new ArrayList<>();
    registry.drainEvicted(
        names -> {
          handed.addAll(names);
          return List.of();
        });
    assertThat(handed)
        .containsExactlyInAnyOrder(
            "send:k0", "send:k1", "send:k2", "send:k3", "send:k4", "send:k5");
    assertThat(registry.size()).isZero();
  }

  @Test
  @Tag("M7")
  void queueScopes_goByTheProcessLocalName_andAreNeverHandedToTheDrain() throws Exception {
    ReservationRegistry registry = new ReservationRegistry(1, Duration.ofSeconds(1), clock);
    registry.touch(List.of(Scope.queue("emails"), Scope.actor("send")));
    assertThat(registry.registryNames()).containsExactly("actor:send");
    registry.touch(List.of(Scope.queue("emails")));
    assertThat(registry.contains("taskq:global:queue:emails")).isTrue();
    advance(Duration.ofSeconds(2));
    assertThat(registry.evictIdle()).isEqualTo(1);
    assertThat(registry.size()).isZero();
    List<List<String>> calls = new ArrayList<>();
    ReservationRegistry.Drain record =
        names -> {
          calls.add(names);
          return List.of();
        };
    assertThat(registry.drainEvicted(record)).isZero();
    assertThat(calls).isEmpty();
  }

  @Test
  @Tag("M7")
  void aQueueOrActorNamedWithTheProcessLocalPrefix_isRefused() {
    assertThatThrownBy(() -> Scope.queue("taskq:global:queue:emails"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must never reach PostgreSQL or Redis (M7)");
    assertThatThrownBy(() -> Scope.actor("taskq:global:queue:x"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(Scope.queue("emails").registryName()).isEqualTo("taskq:global:queue:emails");
    assertThat(Scope.queue("emails").name()).isEqualTo("emails");
  }

  @Test
  void badSettings_areRefused() {
    assertThatThrownBy(() -> new ReservationRegistry(0, Duration.ofSeconds(1), clock))
        .hasMessageContaining("max_keyed_reservations must be >= 1, was 0");
    assertThatThrownBy(() -> new ReservationRegistry(1, Duration.ZERO, clock))
        .hasMessageContaining("idleAfter must be positive");
  }
}
