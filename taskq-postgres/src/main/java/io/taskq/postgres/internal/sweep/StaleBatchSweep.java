package io.taskq.postgres.internal.sweep;

import io.taskq.core.SchemaName;
import io.taskq.postgres.internal.NamedStatements;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * S7 {@code complete_stale_batches}: completes {@code active} batches whose members are all
 * terminal but whose completion hook was lost (L9).
 *
 * <p>One statement per batch: it locks the candidate batch rows ({@code FOR UPDATE SKIP LOCKED}),
 * counts their members in {@code jobs} and {@code jobs_archive}, inserts each completed batch's
 * hook job (payload {@code {"batch_id", "total", "succeeded", "failed", "cancelled", "payload"}})
 * and marks the batch {@code completed} with its counts and {@code hook_job_id}. The lock plus the
 * {@code status = 'active'} re-check on the locked row make the hook fire exactly once, whether the
 * race is with a second leader running this sweep or with the completion path of the last member
 * ({@code settle_batch_members}, V004: every statement that makes jobs terminal locks the batch row
 * {@code FOR UPDATE} after its job rows and checks the status the same way; a member whose
 * transition has not committed is still open in this sweep's snapshot, so its batch is left to it).
 * The sweep's recount overwrites the counters the completion path kept. No {@code job_events} rows.
 * Not breaker-wrapped (T2).
 */
public final class StaleBatchSweep implements SweepBatch {
  /** The sweep's name in metrics and logs. */
  public static final String NAME = "complete_stale_batches";

  /** Drained. */
  public static final Cadence CADENCE = Cadence.DRAINED;

  /** {@code TASKQ_EVENT_WRITER_BATCH_SIZE}'s default; the loop passes the configured value. */
  public static final int DEFAULT_BATCH_SIZE = 100;

  private static final String SQL = "io/taskq/postgres/sql/sweep/stale_batches.sql";

  private final String completeStaleBatches;

  /** A sweep of {@code schema}'s {@code batches}. */
  public StaleBatchSweep(SchemaName schema) {
    this.completeStaleBatches = NamedStatements.load(SQL, schema).get("complete_stale_batches");
  }

  @Override
  public String sweepName() {
    return NAME;
  }

  /** Returns the number of batches completed. */
  @Override
  public int run(Connection tx, int batchSize) throws SQLException {
    SweepArguments.check(NAME, tx, batchSize);
    try (PreparedStatement ps = tx.prepareStatement(completeStaleBatches)) {
      ps.setInt(1, batchSize);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getInt(1);
      }
    }
  }
}
