package io.taskq.postgres.internal;

import io.taskq.postgres.internal.worker.WorkerProbe;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.WeakHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The one object through which the project's tests reach into a running TaskQ (Q1): arming fault
 * seams, dying like a killed process, and reading the counters no production code reads. Production
 * classes only register here ({@link #attach}, {@link #workerStarted}); none of them offers a test
 * hook of its own.
 *
 * <p>Internal: not part of the public API. A test reaches the hooks of its TaskQ with {@link
 * #of(Object)}.
 */
public final class TestHooks {
  private static final Map<Object, TestHooks> OWNERS =
      Collections.synchronizedMap(new WeakHashMap<>());

  private final Runnable crash;
  private volatile @Nullable WorkerProbe worker;

  private TestHooks(Runnable crash) {
    this.crash = Objects.requireNonNull(crash, "crash");
  }

  /**
   * Creates and registers the hooks of {@code owner} (a TaskQ, at its construction).
   *
   * @param crash what {@link #crash()} does: the owner's own death, without any orderly step
   */
  public static TestHooks attach(Object owner, Runnable crash) {
    TestHooks hooks = new TestHooks(crash);
    OWNERS.put(Objects.requireNonNull(owner, "owner"), hooks);
    return hooks;
  }

  /**
   * The hooks of {@code owner}.
   *
   * @throws IllegalArgumentException when {@code owner} registered none
   */
  public static TestHooks of(Object owner) {
    TestHooks hooks = OWNERS.get(owner);
    if (hooks == null) {
      throw new IllegalArgumentException(owner + " has no test hooks");
    }
    return hooks;
  }

  /** Adds {@code faults} faults to {@code seam}'s next checks (the seams are born disarmed). */
  public static void arm(FaultSeam seam, int faults) {
    seam.arm(faults);
  }

  /**
   * Dies the way a killed process does: no outcome recorded, no lease released, no row deleted;
   * what the owner held is left to the reclaim sweep (S1). Idempotent.
   */
  public void crash() {
    crash.run();
  }

  /** Records the owner's running worker (replacing an earlier one). */
  public void workerStarted(WorkerProbe probe) {
    worker = Objects.requireNonNull(probe, "probe");
  }

  /**
   * The owner's running worker.
   *
   * @throws IllegalStateException when it started none
   */
  public WorkerProbe worker() {
    WorkerProbe probe = worker;
    if (probe == null) {
      throw new IllegalStateException("no worker has started");
    }
    return probe;
  }
}
