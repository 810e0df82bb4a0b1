package io.taskq.postgres.internal.execution;

import io.taskq.progress.PostgresProgressStore;
import io.taskq.progress.Progress;
import io.taskq.progress.ProgressReporter;
import org.jspecify.annotations.Nullable;

/**
 * Where a running handler's progress reports go ({@link io.taskq.JobContext#reportProgress}).
 *
 * <p>To PostgreSQL the report is a write fenced on the attempt's lease token (D9); to any other
 * store (Redis, which falls back to PostgreSQL itself) it is the store's plain report. A sink never
 * throws for want of its store; invalid input throws {@link IllegalArgumentException}.
 */
@FunctionalInterface
public interface ProgressSink {
  /** Validates reports and keeps none: for workers built without a progress store (tests). */
  ProgressSink NONE =
      (job, fraction, message, detail) -> Progress.validate(fraction, message, detail);

  /** Reports {@code job}'s progress. */
  void report(RunningJob job, double fraction, String message, @Nullable String detailJson);

  /** The sink writing to {@code store}: fenced when it is the PostgreSQL store. */
  static ProgressSink to(ProgressReporter store) {
    if (store instanceof PostgresProgressStore postgres) {
      return (job, fraction, message, detail) -> {
        boolean unused =
            postgres.reportFenced(job.jobId(), job.leaseToken(), fraction, message, detail);
      };
    }
    return (job, fraction, message, detail) -> store.report(job.jobId(), fraction, message, detail);
  }
}
