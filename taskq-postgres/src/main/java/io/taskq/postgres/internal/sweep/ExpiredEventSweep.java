package io.taskq.postgres.internal.sweep;

import io.taskq.core.SchemaName;
import io.taskq.postgres.internal.NamedStatements;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;

/**
 * S8 {@code sweep_expired_events}, the event TTL: deletes {@code job_events} rows older than {@code
 * TASKQ_EVENT_RETENTION_PERIOD}, whatever their job's status, and stamps the prune watermark (E2).
 *
 * <p>The crash-reclaim slice ({@code kind = 'reclaimed'}, the rows {@code pollReclaimEvents}
 * serves) is kept to {@value #RECLAIM_SLICE_FACTOR} times the period, so a consumer that lagged
 * still finds its events. One statement per batch deletes at most the batch size (other kinds
 * first) and, in the same transaction, raises the two watermarks of {@code maintenance_state}:
 * {@code event_prune_watermark} (the highest {@code event_id} ever deleted) and {@code
 * reclaim_event_prune_watermark} (the highest feed position, {@code (writer_xid, event_id)}, of a
 * deleted reclaimed row), never lowering either. A {@code watchReclaims} cursor below the latter
 * may have lost events and must end with {@code EventRetentionGapException}.
 *
 * <p>One {@value #DEFAULT_BATCH_SIZE}-row batch per tick, deliberately not drained: deleting old
 * history is slow-and-constant work that must never crowd out the repair sweeps (guide §3). A zero
 * period disables the sweep: {@link #run} then touches nothing and returns 0.
 */
public final class ExpiredEventSweep implements SweepBatch {
  /** The sweep's name in metrics and logs. */
  public static final String NAME = "sweep_expired_events";

  /** One batch per tick, not drained. */
  public static final Cadence CADENCE = Cadence.ONE_BATCH_PER_TICK;

  /** The guide's 10 000 rows per tick. */
  public static final int DEFAULT_BATCH_SIZE = 10_000;

  /** The crash-reclaim slice is kept this many times the retention period. */
  public static final int RECLAIM_SLICE_FACTOR = 100;

  /** {@code TASKQ_EVENT_RETENTION_PERIOD}'s default. */
  public static final Duration DEFAULT_RETENTION = Duration.ofDays(7);

  private static final String SQL = "io/taskq/postgres/sql/sweep/expired_events.sql";

  private final String deleteExpiredEvents;
  private final SweepPeriod retention;

  /**
   * A sweep of {@code schema}'s {@code job_events}.
   *
   * @param retention {@code TASKQ_EVENT_RETENTION_PERIOD}: zero disables the sweep; at most 36 500
   *     days
   * @throws IllegalArgumentException when {@code retention} is negative or too long
   */
  public ExpiredEventSweep(SchemaName schema, Duration retention) {
    this.retention = SweepPeriod.zeroDisables("TASKQ_EVENT_RETENTION_PERIOD", retention);
    this.deleteExpiredEvents = NamedStatements.load(SQL, schema).get("delete_expired_events");
  }

  @Override
  public String sweepName() {
    return NAME;
  }

  /** Returns the number of event rows deleted; 0 without a statement when disabled. */
  @Override
  public int run(Connection tx, int batchSize) throws SQLException {
    SweepArguments.check(NAME, tx, batchSize);
    if (retention.disabled()) {
      return 0;
    }
    try (PreparedStatement ps = tx.prepareStatement(deleteExpiredEvents)) {
      ps.setLong(1, retention.micros());
      ps.setInt(2, batchSize);
      ps.setLong(3, Math.multiplyExact(retention.micros(), RECLAIM_SLICE_FACTOR));
      ps.setInt(4, batchSize);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getInt(1);
      }
    }
  }
}
