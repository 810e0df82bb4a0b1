package io.taskq.postgres.internal.sweep;

import io.taskq.core.SchemaName;
import io.taskq.postgres.internal.NamedStatements;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * S5 {@code sweep_expired_results}, the result TTL: nulls stored results whose {@code
 * result_expires_at} passed (L5).
 *
 * <p>One statement per batch, no {@code job_events} rows. The expiry column is kept, recording when
 * the result lapsed. Not breaker-wrapped (T2): the loop passes the batch size explicitly.
 */
public final class ExpiredResultSweep implements SweepBatch {
  /** The sweep's name in metrics and logs. */
  public static final String NAME = "sweep_expired_results";

  /** Drained. */
  public static final Cadence CADENCE = Cadence.DRAINED;

  /** {@code TASKQ_EVENT_WRITER_BATCH_SIZE}'s default; the loop passes the configured value. */
  public static final int DEFAULT_BATCH_SIZE = 100;

  private static final String SQL = "io/taskq/postgres/sql/sweep/expired_results.sql";

  private final String nullExpiredResults;

  /** A sweep of {@code schema}'s {@code jobs}. */
  public ExpiredResultSweep(SchemaName schema) {
    this.nullExpiredResults = NamedStatements.load(SQL, schema).get("null_expired_results");
  }

  @Override
  public String sweepName() {
    return NAME;
  }

  @Override
  public int run(Connection tx, int batchSize) throws SQLException {
    SweepArguments.check(NAME, tx, batchSize);
    try (PreparedStatement ps = tx.prepareStatement(nullExpiredResults)) {
      ps.setInt(1, batchSize);
      return ps.executeUpdate();
    }
  }
}
