package io.taskq.postgres.internal.operations;

import io.taskq.SchemaName;
import io.taskq.operations.RetryWhereException;
import io.taskq.operations.RetryWhereListener;
import io.taskq.operations.RetryWhereProgress;
import io.taskq.operations.RetryWhereResult;
import io.taskq.postgres.internal.FaultSeam;
import io.taskq.postgres.internal.bulk.BulkOperations;
import io.taskq.postgres.internal.sweep.BatchExecutor;
import io.taskq.postgres.internal.sweep.BatchFence;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bulk retry's drain (A3), the bulk cancel's discipline (F1-F3): one {@code retry_where}
 * statement per committed batch inside the {@link BatchExecutor}'s envelope (the event writers'
 * timeout, B2-B3); the drain ends when a batch's window was smaller than the batch size (F2, never
 * on the rows changed); a deadlocked batch is retried up to {@link BulkOperations#ATTEMPTS} times
 * in all after a jittered exponential backoff (F3); any other error reaches the caller at once with
 * the committed progress (no breaker).
 */
final class RetryWhereDrain {
  private static final Logger LOG = LoggerFactory.getLogger(RetryWhereDrain.class);

  private final DataSource dataSource;
  private final SchemaName schema;
  private final BatchExecutor executor;
  private final int batchSize;
  private final Duration batchTimeout;
  private final FaultSeam deadlock = new FaultSeam("retry_where.deadlock", FaultSeam.DEADLOCK);

  RetryWhereDrain(DataSource dataSource, SchemaName schema, int batchSize, Duration batchTimeout) {
    this.dataSource = dataSource;
    this.schema = schema;
    this.executor = new BatchExecutor(schema);
    this.batchSize = batchSize;
    this.batchTimeout = batchTimeout;
  }

  /** Test seam: the next checks fail after the statement, as a deadlock would. */
  FaultSeam deadlockSeam() {
    return deadlock;
  }

  RetryWhereResult run(
      String sql, RetryCriteria criteria, String wakeChannel, RetryWhereListener listener) {
    long started = System.nanoTime();
    RetryWhereBatch batch = new RetryWhereBatch(sql, criteria, wakeChannel, deadlock);
    Tally tally = new Tally();
    LOG.info(
        "retry_where {} in {} ({}): starting (jobs up to id {})",
        criteria.filter(),
        schema.quoted(),
        criteria.note(),
        criteria.maxId());
    do {
      runWithDeadlockRetry(batch, tally);
      tally.batches++;
      tally.retried += batch.retried();
      tally.lastWindow = batch.window();
      listener.onBatch(tally.progress());
    } while (batch.window() >= batchSize);
    Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
    LOG.info(
        "retry_where {} in {}: {} retried, {} batches, {} deadlock retries, {} ms",
        criteria.filter(),
        schema.quoted(),
        tally.retried,
        tally.batches,
        tally.deadlockRetries,
        elapsed.toMillis());
    return new RetryWhereResult(tally.retried, tally.batches, tally.deadlockRetries, elapsed);
  }

  private void runWithDeadlockRetry(RetryWhereBatch batch, Tally tally) {
    for (int attempt = 1; ; attempt++) {
      try {
        executor.runInOwnTransaction(dataSource, batch, batchSize, batchTimeout, BatchFence.NONE);
        return;
      } catch (SQLException e) {
        if (!FaultSeam.DEADLOCK.equals(e.getSQLState()) || attempt >= BulkOperations.ATTEMPTS) {
          throw new RetryWhereException(
              "retry_where in " + schema.quoted() + " stopped", tally.progress(), e);
        }
        tally.deadlockRetries++;
        sleep(backoff(attempt), tally, e);
      }
    }
  }

  /** F3: {@code FIRST_BACKOFF * 2^(attempt-1)}, less a random part of up to half of it. */
  private static Duration backoff(int failedAttempt) {
    long base = BulkOperations.FIRST_BACKOFF.toMillis() << Math.min(failedAttempt - 1, 20);
    double jitter = ThreadLocalRandom.current().nextDouble(0.5);
    return Duration.ofMillis(Math.max(1, (long) (base * (1 - jitter))));
  }

  private void sleep(Duration pause, Tally tally, SQLException cause) {
    try {
      Thread.sleep(pause.toMillis());
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      cause.addSuppressed(interrupted);
      throw new RetryWhereException(
          "retry_where in " + schema.quoted() + " interrupted", tally.progress(), cause);
    }
  }

  /** Committed work so far. */
  private static final class Tally {
    int batches;
    long retried;
    int lastWindow;
    int deadlockRetries;

    RetryWhereProgress progress() {
      return new RetryWhereProgress(batches, retried, lastWindow, deadlockRetries);
    }
  }
}
