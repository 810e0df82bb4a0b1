package io.taskq.postgres.internal.bulk;

import io.taskq.postgres.internal.sweep.CommitAware;
import io.taskq.postgres.internal.sweep.SweepBatch;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One batch of a bulk cancel: the {@code cancel_where} statement (window, locking re-check, driving
 * UPDATE, events, NOTIFYs, batch settlement) inside the executor's bounded-batch envelope (B1-B3).
 *
 * <p>F3: what a batch did is only published by {@link #afterCommit()}: a batch that rolled back (a
 * deadlock, a timeout, a fault) counts nothing, so a retried batch never counts twice. Used by one
 * thread at a time.
 */
final class CancelWhereBatch implements SweepBatch, CommitAware {
  private final String sql;
  private final CancelCriteria criteria;
  private final String workerPrefix;
  private final String wakeChannel;
  private final BulkFaults faults;

  private int pendingWindow;
  private long pendingCancelled;
  private long pendingRequested;
  private boolean ran;

  private int window;
  private long cancelled;
  private long requested;

  CancelWhereBatch(
      String sql,
      CancelCriteria criteria,
      String workerPrefix,
      String wakeChannel,
      BulkFaults faults) {
    this.sql = sql;
    this.criteria = criteria;
    this.workerPrefix = workerPrefix;
    this.wakeChannel = wakeChannel;
    this.faults = faults;
  }

  @Override
  public String sweepName() {
    return "cancel_where";
  }

  @Override
  public int run(Connection tx, int batchSize) throws SQLException {
    ran = false;
    faults.batch().check();
    try (PreparedStatement ps = tx.prepareStatement(sql)) {
      ps.setInt(1, batchSize);
      ps.setLong(2, criteria.maxId());
      ps.setArray(3, tx.createArrayOf("text", criteria.statuses().toArray()));
      setTextArray(tx, ps, 4, criteria.actors());
      setTextArray(tx, ps, 5, criteria.queues());
      if (criteria.labelsJson() == null) {
        ps.setNull(6, Types.VARCHAR);
      } else {
        ps.setString(6, criteria.labelsJson());
      }
      if (criteria.olderThanMicros() == null) {
        ps.setNull(7, Types.BIGINT);
      } else {
        ps.setLong(7, criteria.olderThanMicros());
      }
      ps.setString(8, workerPrefix);
      ps.setString(9, wakeChannel);
      ps.setString(10, criteria.askedBy());
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        pendingWindow = rs.getInt("window_rows");
        pendingCancelled = rs.getLong("cancelled");
        pendingRequested = rs.getLong("cancel_requested");
      }
    }
    // F3: a deadlock here (after the statement, before the commit) rolls the batch back whole.
    faults.deadlock().check();
    ran = true;
    return Math.toIntExact(pendingCancelled + pendingRequested);
  }

  private static void setTextArray(
      Connection tx, PreparedStatement ps, int index, @Nullable List<String> values)
      throws SQLException {
    if (values == null) {
      ps.setNull(index, Types.ARRAY);
    } else {
      ps.setArray(index, tx.createArrayOf("text", values.toArray()));
    }
  }

  @Override
  public void afterCommit() {
    if (ran) {
      window = pendingWindow;
      cancelled = pendingCancelled;
      requested = pendingRequested;
    }
    ran = false;
  }

  @Override
  public void afterRollback() {
    ran = false;
    window = 0;
    cancelled = 0;
    requested = 0;
  }

  /** The window size of the last committed batch (F2). */
  int window() {
    return window;
  }

  /** Jobs the last committed batch cancelled. */
  long cancelled() {
    return cancelled;
  }

  /** Cancel requests the last committed batch stamped on running jobs. */
  long requested() {
    return requested;
  }
}
