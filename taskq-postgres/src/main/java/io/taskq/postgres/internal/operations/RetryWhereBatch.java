package io.taskq.postgres.internal.operations;

import io.taskq.postgres.internal.FaultSeam;
import io.taskq.postgres.internal.sweep.CommitAware;
import io.taskq.postgres.internal.sweep.SweepBatch;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One batch of a bulk retry: the {@code retry_where} statement (window, locking re-check, driving
 * UPDATE, events, wake-ups) inside the executor's bounded-batch envelope (B1-B3). Like the bulk
 * cancel's batch, what it did is published only by {@link #afterCommit()}, so a batch that rolled
 * back counts nothing and a retried batch never counts twice (F3).
 */
final class RetryWhereBatch implements SweepBatch, CommitAware {
  private final String sql;
  private final RetryCriteria criteria;
  private final String wakeChannel;
  private final FaultSeam deadlock;

  private int pendingWindow;
  private long pendingRetried;
  private boolean ran;
  private int window;
  private long retried;

  RetryWhereBatch(String sql, RetryCriteria criteria, String wakeChannel, FaultSeam deadlock) {
    this.sql = sql;
    this.criteria = criteria;
    this.wakeChannel = wakeChannel;
    this.deadlock = deadlock;
  }

  @Override
  public String sweepName() {
    return "retry_where";
  }

  @Override
  public int run(Connection tx, int batchSize) throws SQLException {
    ran = false;
    try (PreparedStatement ps = tx.prepareStatement(sql)) {
      bind(tx, ps, batchSize);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        pendingWindow = rs.getInt("window_rows");
        pendingRetried = rs.getLong("retried");
      }
    }
    // F3: a deadlock here (after the statement, before the commit) rolls the batch back whole.
    deadlock.check();
    ran = true;
    return Math.toIntExact(pendingRetried);
  }

  private void bind(Connection tx, PreparedStatement ps, int batchSize) throws SQLException {
    var f = criteria.filter();
    ps.setInt(1, batchSize);
    ps.setLong(2, criteria.maxId());
    ps.setObject(3, utc(criteria.startedAt()));
    ps.setArray(4, tx.createArrayOf("text", criteria.statuses().toArray()));
    setTextArray(tx, ps, 5, f.actors());
    setTextArray(tx, ps, 6, f.queues());
    String labels = criteria.labelsJson();
    if (labels.isEmpty()) {
      ps.setNull(7, Types.VARCHAR);
    } else {
      ps.setString(7, labels);
    }
    setTextArray(tx, ps, 8, f.errorClasses());
    ps.setObject(9, utc(f.createdFrom()));
    ps.setObject(10, utc(f.createdTo()));
    ps.setObject(11, utc(f.finishedFrom()));
    ps.setObject(12, utc(f.finishedTo()));
    ps.setString(13, criteria.note());
    ps.setString(14, wakeChannel);
  }

  private static @Nullable OffsetDateTime utc(@Nullable Instant at) {
    return at == null ? null : OffsetDateTime.ofInstant(at, ZoneOffset.UTC);
  }

  private static void setTextArray(
      Connection tx, PreparedStatement ps, int index, List<String> values) throws SQLException {
    if (values.isEmpty()) {
      ps.setNull(index, Types.ARRAY);
    } else {
      ps.setArray(index, tx.createArrayOf("text", values.toArray()));
    }
  }

  @Override
  public void afterCommit() {
    if (ran) {
      window = pendingWindow;
      retried = pendingRetried;
    }
    ran = false;
  }

  @Override
  public void afterRollback() {
    ran = false;
    window = 0;
    retried = 0;
  }

  /** The window size of the last committed batch (F2). */
  int window() {
    return window;
  }

  /** Jobs the last committed batch retried. */
  long retried() {
    return retried;
  }
}
