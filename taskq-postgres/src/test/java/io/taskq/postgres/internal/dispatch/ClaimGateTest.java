package io.taskq.postgres.internal.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("L4")
class ClaimGateTest {
  private static final Duration LONG_POLL = Duration.ofMinutes(5);

  private static CompletableFuture<Integer> claimAsync(ClaimGate gate) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return gate.awaitClaim();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
          }
        });
  }

  @Test
  void firstClaim_takesAFullBatchAtOnce() throws Exception {
    ClaimGate gate = new ClaimGate(8, 5, Duration.ZERO, LONG_POLL);
    assertThat(gate.awaitClaim()).isEqualTo(5);
    assertThat(gate.used()).isEqualTo(5);
  }

  @Test
  void fullClaim_isFollowedByAnotherUpToTheFreeSlots() throws Exception {
    ClaimGate gate = new ClaimGate(8, 5, Duration.ZERO, LONG_POLL);
    int first = gate.awaitClaim();
    gate.claimed(first, first);
    assertThat(claimAsync(gate).get(5, TimeUnit.SECONDS)).isEqualTo(3);
  }

  @Test
  void shortClaim_waitsForAWakeUp() throws Exception {
    ClaimGate gate = new ClaimGate(8, 5, Duration.ZERO, LONG_POLL);
    int first = gate.awaitClaim();
    gate.claimed(first, 2);
    assertThat(gate.used()).isEqualTo(2);
    CompletableFuture<Integer> next = claimAsync(gate);
    gate.release();
    assertThat(next).isNotDone();
    gate.wake();
    assertThat(next.get(5, TimeUnit.SECONDS)).isEqualTo(5);
  }

  @Test
  void dueRetry_wakesTheDispatcherWithoutANotification() throws Exception {
    ClaimGate gate = new ClaimGate(4, 4, Duration.ZERO, LONG_POLL);
    int first = gate.awaitClaim();
    gate.claimed(first, 0);
    gate.wakeIn(10);
    gate.wakeIn(1_000);
    assertThat(claimAsync(gate).get(5, TimeUnit.SECONDS)).isEqualTo(4);
    gate.claimed(4, 0);
    // The second due time is remembered on its own, so it wakes the dispatcher again.
    assertThat(claimAsync(gate).get(5, TimeUnit.SECONDS)).isEqualTo(4);
  }

  @Test
  void dueTime_neverWakesTheDispatcherBeforeTheJobIsDue() throws Exception {
    ClaimGate gate = new ClaimGate(4, 4, Duration.ZERO, LONG_POLL);
    gate.claimed(gate.awaitClaim(), 0);
    long start = System.nanoTime();
    gate.wakeIn(50);
    assertThat(claimAsync(gate).get(5, TimeUnit.SECONDS)).isEqualTo(4);
    // A due time in whole milliseconds may be up to one short of the job's run_at.
    assertThat(System.nanoTime() - start)
        .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(50 + ClaimGate.DUE_MARGIN_MILLIS));
  }

  @Test
  void pollInterval_wakesTheDispatcher() throws Exception {
    ClaimGate gate = new ClaimGate(4, 4, Duration.ZERO, Duration.ofMillis(20));
    gate.claimed(gate.awaitClaim(), 0);
    assertThat(claimAsync(gate).get(5, TimeUnit.SECONDS)).isEqualTo(4);
  }

  @Test
  void busyWorker_gathersFreedSlotsIntoOneClaim() throws Exception {
    ClaimGate gate = new ClaimGate(4, 4, Duration.ofSeconds(5), LONG_POLL);
    gate.claimed(gate.awaitClaim(), 4);
    CompletableFuture<Integer> next = claimAsync(gate);
    gate.release();
    gate.release();
    gate.release();
    assertThat(next).isNotDone();
    gate.release();
    assertThat(next.get(5, TimeUnit.SECONDS)).isEqualTo(4);
  }

  @Test
  void noFreeSlot_meansNoClaimEvenWhenWoken() throws Exception {
    ClaimGate gate = new ClaimGate(2, 2, Duration.ZERO, LONG_POLL);
    gate.claimed(gate.awaitClaim(), 2);
    CompletableFuture<Integer> next = claimAsync(gate);
    gate.wake();
    assertThat(next).isNotDone();
    gate.release();
    assertThat(next.get(5, TimeUnit.SECONDS)).isEqualTo(1);
  }

  @Test
  void stop_endsWaitingAndIdleWaits() throws Exception {
    ClaimGate gate = new ClaimGate(2, 2, Duration.ZERO, LONG_POLL);
    gate.claimed(gate.awaitClaim(), 1);
    CompletableFuture<Integer> next = claimAsync(gate);
    gate.stop();
    assertThat(next.get(5, TimeUnit.SECONDS)).isZero();
    assertThat(gate.awaitIdle(Duration.ofMillis(10))).isFalse();
    gate.release();
    assertThat(gate.awaitIdle(Duration.ofSeconds(5))).isTrue();
    assertThat(gate.awaitStop(Duration.ofSeconds(5))).isTrue();
  }

  @Test
  void failedClaim_returnsItsSlotsAndTriesAgain() throws Exception {
    ClaimGate gate = new ClaimGate(3, 3, Duration.ZERO, LONG_POLL);
    gate.claimFailed(gate.awaitClaim());
    assertThat(gate.used()).isZero();
    assertThat(claimAsync(gate).get(5, TimeUnit.SECONDS)).isEqualTo(3);
  }

  @Test
  void lookahead_isNoneBeforeRoundTripAndHandlerTimesAreKnown() throws Exception {
    ClaimGate gate = new ClaimGate(4, 8, 8, Duration.ZERO, LONG_POLL);
    gate.noteClaimRoundTrip(TimeUnit.MILLISECONDS.toNanos(2));
    assertThat(gate.awaitClaim()).isEqualTo(4);
  }

  @Test
  void shortHandlers_letTheWorkerHoldUpToTheLookaheadBeyondItsHandlers() throws Exception {
    ClaimGate gate = new ClaimGate(4, 8, 8, Duration.ZERO, LONG_POLL);
    gate.noteClaimRoundTrip(TimeUnit.MILLISECONDS.toNanos(2));
    gate.noteHandlerRun(TimeUnit.MICROSECONDS.toNanos(10));

    int first = gate.awaitClaim();
    gate.claimed(first, first);
    int second = claimAsync(gate).get(5, TimeUnit.SECONDS);
    gate.claimed(second, second);

    assertThat(first).isEqualTo(8);
    assertThat(second).isEqualTo(4);
    assertThat(gate.used()).isEqualTo(12);
    CompletableFuture<Integer> third = claimAsync(gate);
    gate.wake();
    assertThat(third).isNotDone();
    gate.release();
    assertThat(third.get(5, TimeUnit.SECONDS)).isEqualTo(1);
  }

  @Test
  void lookahead_coversWhatTheHandlersFinishDuringOneRoundTrip() throws Exception {
    ClaimGate gate = new ClaimGate(4, 8, 16, Duration.ZERO, LONG_POLL);
    // Each handler finishes one job per round trip: 4 handlers, 4 more jobs held.
    gate.noteClaimRoundTrip(TimeUnit.MILLISECONDS.toNanos(2));
    gate.noteHandlerRun(TimeUnit.MILLISECONDS.toNanos(2));

    assertThat(gate.awaitClaim()).isEqualTo(8);
  }

  @Test
  void longHandlers_getNoLookahead() throws Exception {
    ClaimGate gate = new ClaimGate(4, 8, 8, Duration.ZERO, LONG_POLL);
    gate.noteClaimRoundTrip(TimeUnit.MILLISECONDS.toNanos(2));
    gate.noteHandlerRun(TimeUnit.SECONDS.toNanos(10));

    assertThat(gate.awaitClaim()).isEqualTo(4);
  }

  @Test
  void lookaheadShrinkingWhileGathering_neverReservesZeroOrFewerSlots() throws Exception {
    // The reverted look-ahead reserved limit - used slots after gathering, computed after the
    // wait: when a slow job's run time shrank the look-ahead meanwhile, that was 0 or less, and a
    // 0 told the dispatcher the gate was stopped, so it ended with free handlers and due jobs.
    ClaimGate gate = new ClaimGate(4, 8, 8, Duration.ofMillis(50), LONG_POLL);
    gate.noteClaimRoundTrip(TimeUnit.MILLISECONDS.toNanos(2));
    gate.noteHandlerRun(TimeUnit.MICROSECONDS.toNanos(10));
    int first = gate.awaitClaim();
    gate.claimed(first, first);
    int second = claimAsync(gate).get(5, TimeUnit.SECONDS);
    gate.claimed(second, second);
    assertThat(gate.used()).isEqualTo(12);

    CompletableFuture<Integer> third = claimAsync(gate);
    gate.release(); // 11 held: the third claim starts gathering for a fuller batch...
    Thread.sleep(10);
    gate.noteHandlerRun(TimeUnit.SECONDS.toNanos(10)); // ...and the look-ahead drops to 0
    Thread.sleep(200);

    assertThat(third).as("no slot is free: 11 jobs held, 4 handlers").isNotDone();
    for (int i = 0; i < 8; i++) {
      gate.release();
    }
    assertThat(third.get(5, TimeUnit.SECONDS)).isEqualTo(1);
    assertThat(gate.used()).isEqualTo(4);
  }

  @Test
  void lookahead_growing_wakesAWaitingClaim() throws Exception {
    ClaimGate gate = new ClaimGate(4, 8, 8, Duration.ZERO, LONG_POLL);
    int first = gate.awaitClaim();
    gate.claimed(first, first);
    assertThat(first).isEqualTo(4);
    CompletableFuture<Integer> next = claimAsync(gate);
    Thread.sleep(50);
    assertThat(next).isNotDone();

    gate.noteClaimRoundTrip(TimeUnit.MILLISECONDS.toNanos(2));
    gate.noteHandlerRun(TimeUnit.MICROSECONDS.toNanos(10));

    assertThat(next.get(5, TimeUnit.SECONDS)).isEqualTo(8);
  }
}
