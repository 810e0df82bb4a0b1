package io.taskq.benchmarks;

import io.taskq.JobsClient;
import java.sql.SQLException;
import java.util.Locale;

/**
 * X3's comparison: TaskQ's batch enqueue beside the raw yardsticks, interleaved call by call
 * (rotating which side goes first) so every side sees the same machine load.
 *
 * <p>Per step of {@value EnqueueRun#PER_CALL} jobs: the raw multi-row INSERT into the raw table,
 * the same rows with COPY into a copy of it, the multi-row INSERT of TaskQ's columns into a copy of
 * {@code jobs}, and {@code JobsClient.enqueueAll} of {@value EnqueueRun#PER_CALL} jobs (the INSERT
 * path). After every {@link JobsClient#BATCH_ROWS_PER_STATEMENT} jobs, one more {@code enqueueAll}
 * of that many jobs: a full chunk of one small option set, which takes the one-set INSERT (a full
 * chunk of several option sets, or of larger payloads, would take COPY). Those land in {@code jobs}
 * as well, so TaskQ's table grows twice as fast as each raw one.
 */
final class EnqueueComparison {
  /** Rows or jobs per second of each side. */
  record Rates(
      double rawInsert, double rawCopy, double rawInsertJobsTable, double taskq, double taskqCopy) {
    void print(int jobs) {
      System.out.printf(
          Locale.ROOT,
          "  raw multi-row INSERT %.0f rows/s; raw COPY %.0f rows/s; raw INSERT into a copy of"
              + " jobs %.0f rows/s%n"
              + "  TaskQ enqueueAll, %d per call (INSERT) %.0f jobs/s: %.2fx raw INSERT, %.2fx raw"
              + " COPY, %.2fx raw INSERT into jobs%n"
              + "  TaskQ enqueueAll, %d per call (full chunk) %.0f jobs/s: %.2fx raw INSERT, %.2fx raw"
              + " INSERT into jobs (%d jobs a side)%n",
          rawInsert,
          rawCopy,
          rawInsertJobsTable,
          EnqueueRun.PER_CALL,
          taskq,
          taskq / rawInsert,
          taskq / rawCopy,
          taskq / rawInsertJobsTable,
          JobsClient.BATCH_ROWS_PER_STATEMENT,
          taskqCopy,
          taskqCopy / rawInsert,
          taskqCopy / rawInsertJobsTable,
          jobs);
    }
  }

  private EnqueueComparison() {}

  /** {@code jobs} (a multiple of {@value EnqueueRun#PER_CALL}) a side; the tables as they are. */
  static Rates run(RawSqlBaseline raw, JobsClient client, int jobs) throws SQLException {
    EnqueueRun enqueue = new EnqueueRun(client);
    int per = EnqueueRun.PER_CALL;
    int chunk = JobsClient.BATCH_ROWS_PER_STATEMENT;
    long[] nanos = new long[5];
    int nextCopied = 1;
    for (int first = 1, step = 0; first <= jobs; first += per, step++) {
      for (int k = 0; k < 4; k++) {
        int side = (step + k) % 4;
        nanos[side] +=
            switch (side) {
              case 0 -> raw.insertBatch(first);
              case 1 -> raw.copyBatch(first);
              case 2 -> raw.insertWideBatch(first);
              default -> enqueue.enqueueBatch(first, per);
            };
      }
      int due = first + per - nextCopied;
      if (due >= chunk || first + per > jobs) {
        nanos[4] += enqueue.enqueueBatch(nextCopied, due);
        nextCopied += due;
      }
    }
    raw.analyze();
    return new Rates(
        jobs / Benchmark.seconds(nanos[0]),
        jobs / Benchmark.seconds(nanos[1]),
        jobs / Benchmark.seconds(nanos[2]),
        jobs / Benchmark.seconds(nanos[3]),
        jobs / Benchmark.seconds(nanos[4]));
  }
}
