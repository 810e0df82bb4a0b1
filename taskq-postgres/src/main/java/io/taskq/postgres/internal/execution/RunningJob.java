package io.taskq.postgres.internal.execution;

import io.taskq.JobContext;
import io.taskq.postgres.internal.dispatch.ClaimedJob;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * One claimed attempt, from claim until its outcome is recorded or its lease released; also the
 * {@link JobContext} its handler sees.
 *
 * <p>Its life: {@code RUNNING} while the handler runs, then either {@code FINISHED} (the handler
 * returned or threw; the outcome goes to the completer), {@code RELEASED} (shutdown gave the lease
 * back first; whatever the handler does later is discarded) or {@code TIMED_OUT} (its attempt
 * timeout passed first, A6: the attempt is failed with {@code AttemptTimeout} and the handler
 * interrupted; whatever it does later is discarded too). The switch is a compare-and-set, so
 * exactly one of the three happens.
 *
 * <p>The worker may interrupt the handler's thread (at the end of the shutdown grace), but only
 * while the handler is inside this job, and it clears the interrupt when the handler leaves, so a
 * pooled thread of the application never carries the interrupt into its next task.
 */
public final class RunningJob implements JobContext {
  private enum State {
    RUNNING,
    FINISHED,
    RELEASED,
    TIMED_OUT
  }

  private final ClaimedJob claim;
  private final ProgressSink progress;
  private final AtomicReference<State> state = new AtomicReference<>(State.RUNNING);
  private volatile boolean cancelRequested;
  private @Nullable Thread thread;
  private boolean interruptedByWorker;

  public RunningJob(ClaimedJob claim) {
    this(claim, ProgressSink.NONE);
  }

  /** An attempt whose handler reports progress to {@code progress}. */
  public RunningJob(ClaimedJob claim, ProgressSink progress) {
    this.claim = claim;
    this.progress = progress;
    this.cancelRequested = claim.cancelRequested();
  }

  @Override
  public long jobId() {
    return claim.id();
  }

  @Override
  public String actor() {
    return claim.actor();
  }

  @Override
  public String queue() {
    return claim.queue();
  }

  @Override
  public int attempt() {
    return claim.attempt();
  }

  @Override
  public int maxAttempts() {
    return claim.maxAttempts();
  }

  @Override
  public boolean isCancelRequested() {
    return cancelRequested;
  }

  @Override
  public Optional<Instant> deadline() {
    return Optional.ofNullable(claim.deadline());
  }

  @Override
  public Map<String, String> labels() {
    return claim.labels();
  }

  @Override
  public void reportProgress(double fraction, String message, @Nullable String detailJson) {
    progress.report(this, fraction, message, detailJson);
  }

  /**
   * From when the job became runnable (its run-at: the enqueue, the scheduled time or the retry
   * time) to its claim, both from the database clock; never negative.
   */
  public Duration pickupLatency() {
    Duration latency = Duration.between(claim.runAt(), claim.startedAt());
    return latency.isNegative() ? Duration.ZERO : latency;
  }

  /** The fencing token of this attempt (D9). */
  public long leaseToken() {
    return claim.leaseToken();
  }

  /**
   * Whether this attempt may hold reservation slots (L7), which recording its outcome must free;
   * false only when its claim handed it none.
   */
  public boolean holdsSlots() {
    return claim.holdsSlots();
  }

  /** The payload's JSON text. */
  public String payload() {
    return claim.payload();
  }

  /** A cancel was requested, or the lease was lost: the handler should stop. Sticky. */
  public void requestCancel() {
    cancelRequested = true;
  }

  /** Whether the handler is still running (neither finished nor released). */
  public boolean isRunning() {
    return state.get() == State.RUNNING;
  }

  /** The handler finished; false when the lease was released first (discard the outcome). */
  boolean finish() {
    return state.compareAndSet(State.RUNNING, State.FINISHED);
  }

  /**
   * The attempt timeout passed (A6): the attempt is over, the handler asked to stop (its cancel
   * flag set, its thread interrupted while still inside this job). False when the handler finished
   * or the lease was released first.
   */
  boolean timeOut() {
    if (!state.compareAndSet(State.RUNNING, State.TIMED_OUT)) {
      return false;
    }
    cancelRequested = true;
    interrupt();
    return true;
  }

  /** Whether the attempt timed out before the handler finished (A6). */
  boolean timedOut() {
    return state.get() == State.TIMED_OUT;
  }

  /**
   * The handler thread's stack right now, or null when the handler is not inside this job: what the
   * handler was doing when its attempt timed out.
   */
  synchronized StackTraceElement @Nullable [] handlerStack() {
    Thread running = thread;
    return running == null ? null : running.getStackTrace();
  }

  /** The job's own per-attempt timeout in milliseconds, 0 when it has none (A6). */
  long attemptTimeoutMillis() {
    return claim.attemptTimeoutMillis();
  }

  /** Shutdown takes the job back; false when the handler already finished. */
  public boolean release() {
    if (state.compareAndSet(State.RUNNING, State.RELEASED)) {
      cancelRequested = true;
      return true;
    }
    return false;
  }

  synchronized void enter(Thread handlerThread) {
    this.thread = handlerThread;
  }

  /** Leaves the handler: forget the thread and clear any interrupt this worker delivered. */
  synchronized void exit() {
    if (interruptedByWorker && thread != null) {
      // Clears the interrupt status that interrupt() set on this (the current) thread.
      boolean unused = Thread.interrupted();
    }
    thread = null;
  }

  /** Interrupts the handler's thread if the handler is still inside this job. */
  public synchronized void interrupt() {
    Thread running = thread;
    if (running != null) {
      interruptedByWorker = true;
      running.interrupt();
    }
  }

  @Override
  public String toString() {
    return "job " + claim.id() + " attempt " + claim.attempt() + " (" + claim.actor() + ")";
  }
}
