package io.taskq.postgres.internal.worker;

import io.taskq.postgres.internal.TestHooks;
import io.taskq.postgres.internal.caps.KeyedReservationDrain;
import io.taskq.postgres.internal.caps.ReservationRegistry;
import java.util.Optional;

/**
 * What the project's tests read of one running worker: its fault seams and the counters no
 * production code reads. Reached only through {@link TestHooks#worker()}; the worker itself exposes
 * none of it.
 */
public final class WorkerProbe {
  private final String id;
  private final WorkerFaults faults;
  private final JobPath path;
  private final Runnable crash;

  WorkerProbe(String id, WorkerFaults faults, JobPath path, Runnable crash) {
    this.id = id;
    this.faults = faults;
    this.path = path;
    this.crash = crash;
  }

  /**
   * Dies the way a killed process does: every loop stops and every handler is interrupted with
   * nothing written (no outcome recorded, no lease released, the worker row left in place), so what
   * the worker held is left to the reclaim sweep (S1). Idempotent; closing the worker afterwards
   * does nothing.
   */
  public void crash() {
    crash.run();
  }

  /** The worker's id ({@code workers.id}, {@code jobs.locked_by}). */
  public String id() {
    return id;
  }

  /** The worker's fault seams, born disarmed (arm them with {@link TestHooks#arm}). */
  public WorkerFaults faults() {
    return faults;
  }

  /** Writes the lease fence turned away so far (D9). */
  public long fencedWrites() {
    return path.fenced.count();
  }

  /** Notifications received on the schema's wake channel so far. */
  public long wakeNotifications() {
    return path.listener.wakeNotifications();
  }

  /** Times the listener (re)connected. */
  public long listenerConnects() {
    return path.listener.connects();
  }

  /** Successful heartbeat ticks so far. */
  public long heartbeats() {
    return path.heartbeat.ticks();
  }

  /** Completion statements that succeeded so far. */
  public long completionBatches() {
    return path.complete.batches();
  }

  /** Attempts held right now (claimed and not yet recorded or released). */
  public int held() {
    return path.inFlight.size();
  }

  /** The keyed rate limits the worker's registry holds now (S10). */
  public int registeredRateLimitKeys() {
    return path.rateLimits.registeredKeys();
  }

  /** The worker's registry of the reservation scopes it claimed slots of (S10, M7). */
  public ReservationRegistry reservations() {
    return path.reservations;
  }

  /** The keyed reservation drain (S10); empty when no actor declares a keyed cap. */
  public Optional<KeyedReservationDrain> keyedDrain() {
    return Optional.ofNullable(path.keyedDrain);
  }
}
