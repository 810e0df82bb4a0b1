package io.taskq.postgres.internal;

import io.taskq.postgres.internal.bulk.BulkFaults;
import io.taskq.postgres.internal.cron.CronFaults;
import io.taskq.postgres.internal.feed.FeedFaults;
import io.taskq.postgres.internal.worker.WorkerProbe;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The one object through which the project's tests reach into a running TaskQ (Q1): arming fault
 * seams, dying like a killed process, and reading the counters no production code reads. Production
 * classes only create and feed them ({@link #create}, {@link #workerStarted}); none of them offers
 * a test hook of its own.
 *
 * <p>Internal: not part of the public API. A test reaches the hooks of its TaskQ with {@link
 * #of(Object)}.
 */
public final class TestHooks {
  private final Runnable crash;
  private final CronFaults cronFaults = new CronFaults();
  private final BulkFaults bulkFaults = new BulkFaults();
  private final FeedFaults feedFaults = new FeedFaults();
  private volatile @Nullable WorkerProbe worker;

  private TestHooks(Runnable crash) {
    this.crash = Objects.requireNonNull(crash, "crash");
  }

  /**
   * The hooks of a TaskQ, which keeps them in a private field of its own (no registry, nothing
   * static: they live and go with their owner).
   *
   * @param crash what {@link #crash()} does: the owner's own death, without any orderly step
   */
  public static TestHooks create(Runnable crash) {
    return new TestHooks(crash);
  }

  /**
   * Hooks of a component made on its own, outside a TaskQ root (the project's tests make clients
   * and feeds so): its fault seams work; there is no process to {@link #crash()}.
   */
  public static TestHooks detached() {
    return new TestHooks(
        () -> {
          throw new IllegalStateException("these test hooks belong to no TaskQ root");
        });
  }

  /**
   * The hooks {@code owner} keeps (its one field of this type), for the project's tests.
   *
   * @throws IllegalArgumentException when {@code owner} keeps none
   */
  public static TestHooks of(Object owner) {
    for (Class<?> c = owner.getClass(); c != null; c = c.getSuperclass()) {
      for (Field field : c.getDeclaredFields()) {
        if (field.getType() == TestHooks.class && !Modifier.isStatic(field.getModifiers())) {
          try {
            field.setAccessible(true);
            return (TestHooks) Objects.requireNonNull(field.get(owner), field.getName());
          } catch (IllegalAccessException | RuntimeException e) {
            throw new IllegalArgumentException("cannot read the test hooks of " + owner, e);
          }
        }
      }
    }
    throw new IllegalArgumentException(owner.getClass().getName() + " keeps no test hooks");
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

  /** {@return the fault seams of the owner's cron loop, born disarmed} */
  public CronFaults cronFaults() {
    return cronFaults;
  }

  /** {@return the fault seams of the bulk drains of the owner's jobs client, born disarmed} */
  public BulkFaults bulkFaults() {
    return bulkFaults;
  }

  /** {@return the fault seams of the watches of the owner's reclaim event feed, born disarmed} */
  public FeedFaults feedFaults() {
    return feedFaults;
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
