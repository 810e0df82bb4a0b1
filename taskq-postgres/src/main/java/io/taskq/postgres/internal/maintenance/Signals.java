package io.taskq.postgres.internal.maintenance;

import io.taskq.spi.MaintenanceListener;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fans each maintenance signal out to several listeners (the application's metrics binding and the
 * readiness view), so that a failing listener can never stop a sweep: its exception is logged and
 * dropped, and the other listeners still receive the signal.
 */
final class Signals implements MaintenanceListener {
  private static final Logger LOG = LoggerFactory.getLogger(Signals.class);

  private final List<MaintenanceListener> listeners;

  Signals(List<MaintenanceListener> listeners) {
    this.listeners = List.copyOf(listeners);
  }

  private void each(String signal, Consumer<MaintenanceListener> call) {
    for (MaintenanceListener listener : listeners) {
      try {
        call.accept(listener);
      } catch (RuntimeException e) {
        LOG.warn("maintenance listener {} failed on {}; ignored", listener, signal, e);
      }
    }
  }

  @Override
  public void maintenanceStarted(Set<String> sweepNames, Set<String> actors) {
    each("maintenanceStarted", l -> l.maintenanceStarted(sweepNames, actors));
  }

  @Override
  public void sweepRows(String sweepName, int rows) {
    each("sweepRows", l -> l.sweepRows(sweepName, rows));
  }

  @Override
  public void sweepDuration(String sweepName, Duration duration, boolean aborted) {
    each("sweepDuration", l -> l.sweepDuration(sweepName, duration, aborted));
  }

  @Override
  public void sweepTimeout(String sweepName) {
    each("sweepTimeout", l -> l.sweepTimeout(sweepName));
  }

  @Override
  public void sweepBatchSize(String sweepName, int used, int configured) {
    each("sweepBatchSize", l -> l.sweepBatchSize(sweepName, used, configured));
  }

  @Override
  public void sweepSucceeded(String sweepName, Instant at) {
    each("sweepSucceeded", l -> l.sweepSucceeded(sweepName, at));
  }

  @Override
  public void leaderChanged(boolean isLeader) {
    each("leaderChanged", l -> l.leaderChanged(isLeader));
  }

  @Override
  public void jobsReclaimed(String actor, String disposition, long count) {
    each("jobsReclaimed", l -> l.jobsReclaimed(actor, disposition, count));
  }
}
