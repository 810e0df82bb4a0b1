package io.taskq.postgres.internal.completion;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.postgres.internal.dispatch.ClaimedJob;
import io.taskq.postgres.internal.execution.Completion;
import io.taskq.postgres.internal.execution.Outcome;
import io.taskq.postgres.internal.execution.RunningJob;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The flood limit of the failed-for-good WARN (P4); the lines themselves: OperatorLogsTest. */
@Tag("P4")
class FailedForGoodLogTest {
  private final AtomicLong nanos = new AtomicLong();
  private final FailedForGoodLog log = new FailedForGoodLog(nanos::get);

  @Test
  void tenLinesAMinute_theRestCountedAndReportedWhenTheNextMinuteBegins() {
    int logged = 0;
    for (int i = 0; i < 25; i++) {
      logged += log.failedForGood(failure(i)) ? 1 : 0;
    }
    assertThat(logged).isEqualTo(FailedForGoodLog.BURST);

    nanos.addAndGet(FailedForGoodLog.WINDOW.toNanos());
    assertThat(log.failedForGood(failure(25))).as("a new minute logs again").isTrue();
    assertThat(log.reportSuppressed()).as("the 15 were reported as the minute turned").isZero();
  }

  @Test
  void whatIsHeldBack_isReportedOnce_atShutdown() {
    for (int i = 0; i < 12; i++) {
      log.failedForGood(failure(i));
    }

    assertThat(log.reportSuppressed()).isEqualTo(2);
    assertThat(log.reportSuppressed()).isZero();
  }

  private static Completion failure(long id) {
    Instant now = Instant.EPOCH;
    ClaimedJob claim =
        new ClaimedJob(id, "charge", "default", 0, now, "{}", 3, 3, 7, null, false, now);
    return new Completion(new RunningJob(claim), Outcome.failed(new IllegalStateException("no")));
  }
}
