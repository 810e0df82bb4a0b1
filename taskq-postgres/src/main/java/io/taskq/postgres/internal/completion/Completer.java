package io.taskq.postgres.internal.completion;

import io.taskq.postgres.internal.Backoff;
import io.taskq.postgres.internal.FencedWrites;
import io.taskq.postgres.internal.SqlErrors;
import io.taskq.postgres.internal.execution.Completion;
import io.taskq.postgres.internal.execution.InFlight;
import io.taskq.postgres.internal.execution.Outcome;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records finished attempts in batches: the group commit of the worker.
 *
 * <p>Handler threads only queue their outcome ({@link #submit}); one completer thread takes
 * everything queued (up to the batch size) and records it with one statement in one transaction.
 * While that statement runs, new outcomes queue up and go in the next one. Before taking a batch
 * smaller than {@code flushAt} (the handler slot count: what one claim can bring), the completer
 * lingers a moment for more; so under load one claim and one completion statement serve a whole
 * batch of jobs, which is what keeps the write transactions per job low. The linger delays only the
 * recording of an outcome, never the pickup of a job.
 *
 * <p>Failures. A transient failure (connection lost, pool timeout, statement timeout, deadlock)
 * keeps the batch and retries it with backoff (50 ms to 2 s): outcomes are never dropped while the
 * worker runs. Any other failure means one of the rows is poison (a result the database refuses as
 * JSON, say); the batch is then recorded row by row, and a success whose result is refused is
 * recorded as a failure with {@code error_class} {@code InvalidResult} instead.
 *
 * <p>Shutdown: {@link #finish(Duration)} stops taking new outcomes only once the queue is empty, so
 * everything queued before it is recorded; only when the database stays unreachable past the given
 * time are the remaining outcomes abandoned (logged at ERROR): their leases then expire and the
 * jobs run again (at-least-once).
 */
public final class Completer implements Runnable {
  /** Batches of outcomes that may wait before {@link #submit} makes handlers wait. */
  static final int QUEUED_BATCHES = 4;

  private static final Logger LOG = LoggerFactory.getLogger(Completer.class);

  private final CompletionWriter writer;
  private final InFlight inFlight;
  private final FencedWrites fenced;
  private final LongConsumer retryDueIn;
  private final int batchSize;
  private final int flushAt;
  private final long lingerNanos;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final ArrayDeque<Completion> queue = new ArrayDeque<>();
  private final Backoff backoff = new Backoff(Duration.ofMillis(50), Duration.ofSeconds(2));
  private final AtomicLong recorded = new AtomicLong();
  private final AtomicLong batches = new AtomicLong();
  private final FailedForGoodLog failedForGood = new FailedForGoodLog();
  private boolean finishing;
  private long abandonAt;

  /**
   * @param retryDueIn told how many milliseconds until each retry this worker scheduled is due
   * @param batchSize most outcomes per statement
   * @param flushAt a batch this large is written at once; a smaller one waits up to {@code linger}
   *     for more
   */
  public Completer(
      CompletionWriter writer,
      InFlight inFlight,
      FencedWrites fenced,
      LongConsumer retryDueIn,
      int batchSize,
      int flushAt,
      Duration linger) {
    this.writer = writer;
    this.inFlight = inFlight;
    this.fenced = fenced;
    this.retryDueIn = retryDueIn;
    this.batchSize = batchSize;
    this.flushAt = Math.max(1, Math.min(flushAt, batchSize));
    this.lingerNanos = linger.toNanos();
  }

  /**
   * Queues a finished attempt for recording. Back-pressure: while {@value #QUEUED_BATCHES} batches
   * of outcomes already wait (the database is slow or away), the handler's thread waits here, so
   * its slot is not freed and the worker claims no more jobs than it can record; the wait ends when
   * a batch is taken, at shutdown, or when the thread is interrupted.
   */
  public void submit(Completion completion) {
    lock.lock();
    try {
      while (queue.size() >= QUEUED_BATCHES * batchSize && !finishing) {
        try {
          changed.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
      queue.addLast(completion);
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Asks the loop to end once every held attempt's outcome is recorded: call it after the attempts
   * still running were released (they leave {@link InFlight}); transient failures are retried until
   * {@code patience} passes, then the rest is abandoned.
   */
  public void finish(Duration patience) {
    lock.lock();
    try {
      finishing = true;
      abandonAt = System.nanoTime() + patience.toNanos();
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void run() {
    try {
      for (List<Completion> batch = take(); !batch.isEmpty(); batch = take()) {
        flush(batch);
      }
      failedForGood.reportSuppressed();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      LOG.error("completer interrupted with {} outcomes unrecorded", queued());
    }
  }

  private List<Completion> take() throws InterruptedException {
    lock.lock();
    try {
      while (queue.isEmpty()) {
        if (!finishing) {
          changed.await();
        } else if (inFlight.size() == 0 || System.nanoTime() - abandonAt >= 0) {
          return List.of();
        } else {
          // A handler that finished just before shutdown released the rest is about to submit.
          changed.awaitNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
      }
      linger();
      List<Completion> batch = new ArrayList<>(Math.min(queue.size(), batchSize));
      while (!queue.isEmpty() && batch.size() < batchSize) {
        batch.add(queue.pollFirst());
      }
      changed.signalAll(); // room for handlers waiting in submit()
      return batch;
    } finally {
      lock.unlock();
    }
  }

  private void linger() throws InterruptedException {
    long until = System.nanoTime() + lingerNanos;
    while (!finishing && queue.size() < flushAt) {
      long left = until - System.nanoTime();
      if (left <= 0) {
        return;
      }
      changed.awaitNanos(left);
    }
  }

  private void flush(List<Completion> batch) throws InterruptedException {
    while (true) {
      try {
        record(batch);
        backoff.reset();
        return;
      } catch (SQLException e) {
        if (!SqlErrors.isTransient(e)) {
          LOG.warn(
              "recording {} outcomes failed (SQLSTATE {}); recording them one by one: {}",
              batch.size(),
              SqlErrors.state(e),
              e.toString());
          recordOneByOne(batch);
          return;
        }
        if (!waitToRetry(batch, e)) {
          abandon(batch);
          return;
        }
      }
    }
  }

  private void record(List<Completion> batch) throws SQLException {
    List<RecordedOutcome> done = writer.write(batch);
    batches.incrementAndGet();
    recorded.addAndGet(done.size());
    Map<Long, RecordedOutcome> byId = new HashMap<>();
    for (RecordedOutcome r : done) {
      byId.put(r.jobId(), r);
      if (r.isRetry()) {
        retryDueIn.accept(r.retryInMillis());
      }
    }
    for (Completion c : batch) {
      RecordedOutcome r = byId.remove(c.job().jobId());
      if (r == null) {
        fenced.report("recording the outcome", c.job().jobId(), c.job().leaseToken());
      } else if (r.isFailedForGood()) {
        failedForGood.failedForGood(c);
      }
      inFlight.remove(c.job());
    }
  }

  private void recordOneByOne(List<Completion> batch) throws InterruptedException {
    for (Completion c : batch) {
      try {
        record(List.of(c));
      } catch (SQLException e) {
        recordRefused(c, e);
      }
    }
  }

  private void recordRefused(Completion c, SQLException refusal) throws InterruptedException {
    if (SqlErrors.isTransient(refusal)) {
      flush(List.of(c));
      return;
    }
    if (c.outcome().succeeded()) {
      String why = "the database refused the handler's result: " + refusal.getMessage();
      flush(List.of(new Completion(c.job(), Outcome.failed(Outcome.INVALID_RESULT, why))));
      return;
    }
    LOG.error(
        "cannot record the outcome of {} (SQLSTATE {}); its lease will expire and the"
            + " job run again: {}",
        c.job(),
        SqlErrors.state(refusal),
        refusal.toString());
    inFlight.remove(c.job());
  }

  /** Waits before retrying; false when shutdown's patience ran out. */
  private boolean waitToRetry(List<Completion> batch, SQLException e) throws InterruptedException {
    Duration delay = backoff.next();
    if (backoff.failures() == 1) {
      LOG.warn(
          "recording {} outcomes failed (SQLSTATE {}); retrying with backoff: {}",
          batch.size(),
          SqlErrors.state(e),
          e.toString());
    }
    lock.lock();
    try {
      long until = System.nanoTime() + delay.toNanos();
      if (finishing && until - abandonAt > 0) {
        return System.nanoTime() - abandonAt < 0 && sleepUntil(abandonAt);
      }
      return sleepUntil(until);
    } finally {
      lock.unlock();
    }
  }

  private boolean sleepUntil(long deadline) throws InterruptedException {
    for (long left = deadline - System.nanoTime(); left > 0; left = deadline - System.nanoTime()) {
      changed.awaitNanos(left);
    }
    return true;
  }

  private void abandon(List<Completion> batch) {
    List<Completion> lost = new ArrayList<>(batch);
    lock.lock();
    try {
      lost.addAll(queue);
      queue.clear();
    } finally {
      lock.unlock();
    }
    LOG.error(
        "shutting down with the database unreachable: {} outcomes not recorded (jobs {});"
            + " their leases will expire and the jobs run again",
        lost.size(),
        lost.stream().map(c -> c.job().jobId()).limit(50).toList());
    lost.forEach(c -> inFlight.remove(c.job()));
  }

  private int queued() {
    lock.lock();
    try {
      return queue.size();
    } finally {
      lock.unlock();
    }
  }

  /** Transitions recorded so far. */
  public long recorded() {
    return recorded.get();
  }

  /** Completion statements that succeeded so far. */
  public long batches() {
    return batches.get();
  }
}
