package io.taskq.core.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.BatchUpdateException;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Every arm of the T2 breaker, on an injected clock: no sleeps. */
@Tag("T2")
@Tag("Q1")
class SweepBatchSizerTest {
  private static final Duration WINDOW = Duration.ofMinutes(10);

  private final AtomicLong nanos = new AtomicLong(1_000_000_000L);

  private SweepBatchSizer sizer(int batchSize, int divisor, int threshold) {
    return new SweepBatchSizer(
        "reclaim_expired_locks", batchSize, divisor, threshold, WINDOW, nanos::get);
  }

  private void advance(Duration duration) {
    nanos.addAndGet(duration.toNanos());
  }

  @Test
  void aFreshSizerUsesTheConfiguredSize() {
    SweepBatchSizer sizer = sizer(100, 4, 3);
    assertThat(sizer.currentBatchSize()).isEqualTo(100);
    assertThat(sizer.configuredBatchSize()).isEqualTo(100);
    assertThat(sizer.reducedBatchSize()).isEqualTo(25);
    assertThat(sizer.isLatched()).isFalse();
    assertThat(sizer.consecutiveAborts()).isZero();
    assertThat(sizer.sweepName()).isEqualTo("reclaim_expired_locks");
  }

  @Test
  void abortsBelowTheThresholdDoNotLatch() {
    SweepBatchSizer sizer = sizer(100, 4, 3);
    assertThat(sizer.recordAbort()).isFalse();
    advance(Duration.ofSeconds(30));
    assertThat(sizer.recordAbort()).isFalse();
    assertThat(sizer.consecutiveAborts()).isEqualTo(2);
    assertThat(sizer.isLatched()).isFalse();
    assertThat(sizer.currentBatchSize()).isEqualTo(100);
  }

  @Test
  void theThresholdthAbortWithinTheWindowLatchesTheReducedTier() {
    SweepBatchSizer sizer = sizer(100, 4, 3);
    sizer.recordAbort();
    advance(Duration.ofSeconds(30));
    sizer.recordAbort();
    advance(Duration.ofSeconds(30));
    assertThat(sizer.recordAbort()).as("the latching abort reports the transition").isTrue();
    assertThat(sizer.isLatched()).isTrue();
    assertThat(sizer.currentBatchSize()).isEqualTo(25);
    assertThat(sizer.consecutiveAborts()).isEqualTo(3);
    assertThat(sizer.recordAbort()).as("only the transition reports true").isFalse();
    assertThat(sizer.consecutiveAborts()).as("saturates at the threshold").isEqualTo(3);
  }

  @Test
  void aSuccessBetweenAbortsResetsTheCount() {
    SweepBatchSizer sizer = sizer(100, 4, 3);
    sizer.recordAbort();
    sizer.recordAbort();
    sizer.recordSuccess();
    assertThat(sizer.consecutiveAborts()).isZero();
    sizer.recordAbort();
    sizer.recordAbort();
    assertThat(sizer.isLatched()).isFalse();
    assertThat(sizer.consecutiveAborts()).isEqualTo(2);
    assertThat(sizer.currentBatchSize()).isEqualTo(100);
  }

  @Test
  void abortsSpreadWiderThanTheWindowDoNotLatch() {
    SweepBatchSizer sizer = sizer(100, 4, 3);
    sizer.recordAbort();
    advance(Duration.ofSeconds(301));
    sizer.recordAbort();
    advance(Duration.ofSeconds(301));
    assertThat(sizer.recordAbort()).isFalse();
    assertThat(sizer.isLatched()).isFalse();
    assertThat(sizer.consecutiveAborts()).as("the first abort dropped out of the run").isEqualTo(2);

    advance(Duration.ofSeconds(1));
    assertThat(sizer.recordAbort()).as("the last three now fit in 600 s").isTrue();
    assertThat(sizer.currentBatchSize()).isEqualTo(25);
  }

  @Test
  void anAbortExactlyOneWindowOldStillCounts() {
    SweepBatchSizer sizer = sizer(100, 4, 3);
    sizer.recordAbort();
    advance(Duration.ofMinutes(5));
    sizer.recordAbort();
    advance(Duration.ofMinutes(5));
    assertThat(sizer.recordAbort()).isTrue();
  }

  @Test
  void anAbortOneNanosecondPastTheWindowDropsOut() {
    SweepBatchSizer sizer = sizer(100, 4, 3);
    sizer.recordAbort();
    advance(Duration.ofMinutes(5));
    sizer.recordAbort();
    advance(Duration.ofMinutes(5).plusNanos(1));
    assertThat(sizer.recordAbort()).isFalse();
  }

  @Test
  void aLongQuietGapStartsTheRunAfresh() {
    SweepBatchSizer sizer = sizer(100, 4, 3);
    sizer.recordAbort();
    sizer.recordAbort();
    advance(Duration.ofHours(2));
    sizer.recordAbort();
    assertThat(sizer.consecutiveAborts()).isEqualTo(1);
    assertThat(sizer.isLatched()).isFalse();
  }

  @Test
  void theLatchSurvivesSuccessesAndTime() {
    SweepBatchSizer sizer = sizer(100, 4, 3);
    sizer.recordAbort();
    sizer.recordAbort();
    sizer.recordAbort();
    for (int i = 0; i < 5; i++) {
      sizer.recordSuccess();
      advance(Duration.ofDays(1));
    }
    assertThat(sizer.isLatched()).isTrue();
    assertThat(sizer.currentBatchSize()).isEqualTo(25);
    assertThat(sizer.consecutiveAborts()).isZero();
  }

  @Test
  void theReducedTierNeverFallsBelowOne() {
    SweepBatchSizer sizer = sizer(3, 4, 3);
    assertThat(sizer.reducedBatchSize()).isEqualTo(1);
    sizer.recordAbort();
    sizer.recordAbort();
    sizer.recordAbort();
    assertThat(sizer.currentBatchSize()).isEqualTo(1);
  }

  @Test
  void aDivisorOfOneLatchesWithoutShrinking() {
    SweepBatchSizer sizer = sizer(100, 1, 3);
    sizer.recordAbort();
    sizer.recordAbort();
    sizer.recordAbort();
    assertThat(sizer.isLatched()).isTrue();
    assertThat(sizer.currentBatchSize()).isEqualTo(100);
  }

  @Test
  void theReducedTierRoundsDown() {
    assertThat(sizer(10_000, 4, 3).reducedBatchSize()).isEqualTo(2_500);
    assertThat(sizer(103, 4, 3).reducedBatchSize()).isEqualTo(25);
    assertThat(sizer(1, 4, 3).reducedBatchSize()).isEqualTo(1);
  }

  @Test
  void aThresholdOfOneLatchesOnTheFirstAbort() {
    SweepBatchSizer sizer = sizer(100, 4, 1);
    assertThat(sizer.recordAbort()).isTrue();
    assertThat(sizer.currentBatchSize()).isEqualTo(25);
  }

  @Test
  void aHugeWindowDoesNotOverflow() {
    SweepBatchSizer sizer =
        new SweepBatchSizer("s", 100, 4, 2, Duration.ofSeconds(Long.MAX_VALUE), nanos::get);
    sizer.recordAbort();
    advance(Duration.ofDays(100_000));
    assertThat(sizer.recordAbort()).isTrue();
  }

  @Test
  void theSystemClockConstructorWorksForBackToBackAborts() {
    SweepBatchSizer sizer = new SweepBatchSizer("scheduled_to_pending", 100, 4, 3, WINDOW);
    sizer.recordAbort();
    sizer.recordAbort();
    sizer.recordAbort();
    assertThat(sizer.isLatched()).isTrue();
    assertThat(sizer.toString())
        .isEqualTo("SweepBatchSizer{scheduled_to_pending, batch 25 of 100, latched}");
  }

  @Test
  void concurrentAbortsLatchExactlyOnce() throws Exception {
    SweepBatchSizer sizer = sizer(100, 4, 3);
    int threads = 8;
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Boolean>> results = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        results.add(
            pool.submit(
                () -> {
                  start.await();
                  return sizer.recordAbort();
                }));
      }
      start.countDown();
      int transitions = 0;
      for (Future<Boolean> result : results) {
        transitions += result.get(10, TimeUnit.SECONDS) ? 1 : 0;
      }
      assertThat(transitions).isEqualTo(1);
      assertThat(sizer.currentBatchSize()).isEqualTo(25);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void toStringShowsTheSweepAndItsTier() {
    assertThat(sizer(100, 4, 3).toString())
        .isEqualTo("SweepBatchSizer{reclaim_expired_locks, batch 100 of 100}");
  }

  @Test
  void invalidArgumentsAreRejectedByName() {
    assertThatThrownBy(() -> sizer(0, 4, 3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("configuredBatchSize must be at least 1, was 0");
    assertThatThrownBy(() -> sizer(100, 0, 3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("divisor must be at least 1, was 0");
    assertThatThrownBy(() -> sizer(100, 4, -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("failureThreshold must be at least 1, was -1");
    assertThatThrownBy(() -> new SweepBatchSizer("s", 100, 4, 3, Duration.ZERO, nanos::get))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("window must be positive, was PT0S");
    assertThatThrownBy(
            () -> new SweepBatchSizer("s", 100, 4, 3, Duration.ofSeconds(-1), nanos::get))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("window must be positive, was PT-1S");
    assertThatThrownBy(() -> new SweepBatchSizer("", 100, 4, 3, WINDOW, nanos::get))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("sweepName must not be empty");
  }

  @Test
  void isAbort_recognisesTheServerStatementTimeout() {
    assertThat(SweepBatchSizer.isAbort(new SQLException("canceling statement", "57014"))).isTrue();
  }

  @Test
  void isAbort_recognisesClientTimeouts() {
    assertThat(SweepBatchSizer.isAbort(new SQLTimeoutException("query timeout"))).isTrue();
    assertThat(SweepBatchSizer.isAbort(new TimeoutException("deadline"))).isTrue();
  }

  @Test
  void isAbort_findsTheAbortAnywhereInTheCauseChain() {
    SQLException cancelled = new SQLException("canceling statement", "57014");
    assertThat(SweepBatchSizer.isAbort(new IllegalStateException(new RuntimeException(cancelled))))
        .isTrue();
    assertThat(SweepBatchSizer.isAbort(new ExecutionException(new TimeoutException()))).isTrue();
    assertThat(SweepBatchSizer.isAbort(new CompletionException(new SQLTimeoutException())))
        .isTrue();
    assertThat(SweepBatchSizer.isAbort(new SQLException("wrapped", "XX000", cancelled))).isTrue();
  }

  @Test
  void isAbort_findsTheAbortInABatchsNextExceptionChain() {
    BatchUpdateException batch = new BatchUpdateException("batch entry 0 aborted", new int[0]);
    batch.setNextException(new SQLException("canceling statement", "57014"));
    assertThat(SweepBatchSizer.isAbort(batch)).isTrue();
  }

  @Test
  void isAbort_rejectsOtherFailures() {
    assertThat(SweepBatchSizer.isAbort(new SQLException("deadlock", "40P01"))).isFalse();
    assertThat(SweepBatchSizer.isAbort(new SQLException("no state"))).isFalse();
    assertThat(SweepBatchSizer.isAbort(new SQLTransientConnectionException("gone", "08006")))
        .isFalse();
    assertThat(SweepBatchSizer.isAbort(new IllegalStateException("boom"))).isFalse();
    assertThat(SweepBatchSizer.isAbort(null)).isFalse();
  }

  @Test
  void isAbort_terminatesOnCyclicChains() {
    RuntimeException a = new RuntimeException("a");
    RuntimeException b = new RuntimeException("b", a);
    a.initCause(b);
    assertThat(SweepBatchSizer.isAbort(a)).isFalse();

    SQLException first = new SQLException("first", "40001");
    SQLException second = new SQLException("second", "40001");
    first.setNextException(second);
    second.setNextException(first);
    assertThat(SweepBatchSizer.isAbort(first)).isFalse();
  }
}
