package io.taskq.postgres.testing;

import io.taskq.spi.MaintenanceListener;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** A {@link MaintenanceListener} that records every signal as a line of text, in order. */
public final class RecordingListener implements MaintenanceListener {
  private final List<String> signals = Collections.synchronizedList(new ArrayList<>());

  /** Every signal so far, e.g. {@code rows reclaim_expired_locks 5}. */
  public List<String> signals() {
    synchronized (signals) {
      return List.copyOf(signals);
    }
  }

  /** The signals starting with {@code prefix}. */
  public List<String> signals(String prefix) {
    return signals().stream().filter(s -> s.startsWith(prefix)).toList();
  }

  public void clear() {
    signals.clear();
  }

  @Override
  public void sweepRows(String sweepName, int rows) {
    signals.add("rows " + sweepName + " " + rows);
  }

  @Override
  public void sweepDuration(String sweepName, Duration duration, boolean aborted) {
    signals.add("duration " + sweepName + (aborted ? " aborted" : " committed"));
  }

  @Override
  public void sweepTimeout(String sweepName) {
    signals.add("timeout " + sweepName);
  }

  @Override
  public void sweepBatchSize(String sweepName, int used, int configured) {
    signals.add("batch_size " + sweepName + " " + used + "/" + configured);
  }

  @Override
  public void sweepSucceeded(String sweepName, Instant at) {
    signals.add("success " + sweepName);
  }

  @Override
  public void leaderChanged(boolean isLeader) {
    signals.add("leader " + isLeader);
  }

  @Override
  public void jobsReclaimed(String actor, String disposition, long count) {
    signals.add("reclaimed " + actor + " " + disposition + " " + count);
  }
}
