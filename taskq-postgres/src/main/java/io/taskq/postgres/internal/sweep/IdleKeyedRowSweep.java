package io.taskq.postgres.internal.sweep;

import io.taskq.core.SchemaName;
import io.taskq.postgres.internal.NamedStatements;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;

/**
 * S9 {@code sweep_idle_keyed_rows}: deletes keyed {@code reservation_slots} and {@code
 * rate_limit_buckets} rows unused past {@code TASKQ_KEYED_ROW_RECLAIM_PERIOD} (L7, M4).
 *
 * <p>Keyed rows are created per key ("at most 3 running jobs per customer"), so without this sweep
 * the rows a dead worker left behind would accumulate forever. Per-worker eviction (S10) removes
 * the rows of live workers; this leader sweep removes the orphans. A keyed slot still held under a
 * live lease is never deleted, whatever its age.
 *
 * <p>One statement per tick deletes at most the batch size ({@value #DEFAULT_BATCH_SIZE} by
 * default) from <em>each</em> table, so both tables' batches commit together in the loop's one
 * transaction; deliberately not drained. A zero period disables the sweep. No {@code job_events}
 * rows.
 */
public final class IdleKeyedRowSweep implements SweepBatch {
  /** The sweep's name in metrics and logs. */
  public static final String NAME = "sweep_idle_keyed_rows";

  /** One batch per tick, not drained. */
  public static final Cadence CADENCE = Cadence.ONE_BATCH_PER_TICK;

  /** The guide's 256 rows per table per tick. */
  public static final int DEFAULT_BATCH_SIZE = 256;

  private static final String SQL = "io/taskq/postgres/sql/sweep/idle_keyed_rows.sql";

  /** What one batch deleted, per table. */
  public record Deleted(int reservationSlots, int rateLimitBuckets) {
    /** Both tables together. */
    public int total() {
      return reservationSlots + rateLimitBuckets;
    }
  }

  private final String deleteIdleKeyedRows;
  private final SweepPeriod reclaimPeriod;

  /**
   * A sweep of {@code schema}'s keyed rows.
   *
   * @param reclaimPeriod {@code TASKQ_KEYED_ROW_RECLAIM_PERIOD}: zero disables the sweep; at most
   *     36 500 days
   * @throws IllegalArgumentException when {@code reclaimPeriod} is negative or too long
   */
  public IdleKeyedRowSweep(SchemaName schema, Duration reclaimPeriod) {
    this.reclaimPeriod = SweepPeriod.zeroDisables("TASKQ_KEYED_ROW_RECLAIM_PERIOD", reclaimPeriod);
    this.deleteIdleKeyedRows = NamedStatements.load(SQL, schema).get("delete_idle_keyed_rows");
  }

  @Override
  public String sweepName() {
    return NAME;
  }

  /** Returns the rows deleted from both tables together; 0 without a statement when disabled. */
  @Override
  public int run(Connection tx, int batchSize) throws SQLException {
    return runPerTable(tx, batchSize).total();
  }

  /**
   * The batch, reporting each table's deletions.
   *
   * @param batchSize the most rows deleted from each table
   */
  public Deleted runPerTable(Connection tx, int batchSize) throws SQLException {
    SweepArguments.check(NAME, tx, batchSize);
    if (reclaimPeriod.disabled()) {
      return new Deleted(0, 0);
    }
    try (PreparedStatement ps = tx.prepareStatement(deleteIdleKeyedRows)) {
      ps.setLong(1, reclaimPeriod.micros());
      ps.setInt(2, batchSize);
      ps.setLong(3, reclaimPeriod.micros());
      ps.setInt(4, batchSize);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return new Deleted(rs.getInt(1), rs.getInt(2));
      }
    }
  }
}
