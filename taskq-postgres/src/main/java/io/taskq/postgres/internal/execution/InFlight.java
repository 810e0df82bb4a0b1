package io.taskq.postgres.internal.execution;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The attempts this worker holds a lease for: from claim until the outcome is recorded or the lease
 * released. The heartbeat renews exactly these leases; shutdown releases the ones still running.
 * Keyed by lease token, which is unique, so even an old attempt of a job and its new one (after a
 * lost lease) never collide.
 */
public final class InFlight {
  private final ConcurrentMap<Long, RunningJob> byToken = new ConcurrentHashMap<>();

  public void add(RunningJob job) {
    byToken.put(job.leaseToken(), job);
  }

  public void remove(RunningJob job) {
    byToken.remove(job.leaseToken(), job);
  }

  public boolean contains(RunningJob job) {
    return byToken.get(job.leaseToken()) == job;
  }

  /** A snapshot of every held attempt. */
  public List<RunningJob> all() {
    return List.copyOf(byToken.values());
  }

  /** A snapshot of the attempts whose handler is still running. */
  public List<RunningJob> running() {
    return byToken.values().stream().filter(RunningJob::isRunning).toList();
  }

  public int size() {
    return byToken.size();
  }
}
