package io.taskq.benchmarks;

import io.taskq.JobRequest;
import io.taskq.JobsClient;
import java.util.ArrayList;
import java.util.List;

/**
 * Figure (a): batch enqueue through {@link JobsClient#enqueueAll(List)}, {@value #PER_CALL} jobs
 * per call, each call its own transaction, as an application enqueueing in bulk would.
 *
 * <p>The timed part builds the requests too (payload JSON checked, options defaulted), exactly as
 * the baseline builds its parameter strings inside its timed part. The benchmark interleaves the
 * two batch by batch, so both see the same machine load.
 */
final class EnqueueRun {
  static final int PER_CALL = RawSqlBaseline.INSERT_ROWS_PER_STATEMENT;
  static final String ACTOR = "bench-noop";

  private final JobsClient client;

  EnqueueRun(JobsClient client) {
    this.client = client;
  }

  /** Enqueues {@code jobs} pending no-op jobs; returns the elapsed nanoseconds. */
  long enqueue(int jobs) {
    long nanos = 0;
    for (int done = 0; done < jobs; done += PER_CALL) {
      nanos += enqueueBatch(done + 1, Math.min(PER_CALL, jobs - done));
    }
    return nanos;
  }

  /**
   * Enqueues {@code n} jobs with one {@code enqueueAll} call; returns the elapsed nanoseconds,
   * building the requests included.
   *
   * @param first the number of the first job, for its payload
   */
  long enqueueBatch(int first, int n) {
    long start = System.nanoTime();
    List<JobRequest> batch = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      batch.add(JobRequest.of(ACTOR, "{\"n\":" + (first + i) + "}"));
    }
    client.enqueueAll(batch);
    return System.nanoTime() - start;
  }
}
