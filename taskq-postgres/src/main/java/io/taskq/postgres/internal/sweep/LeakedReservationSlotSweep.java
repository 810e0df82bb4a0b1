package io.taskq.postgres.internal.sweep;

import io.taskq.core.SchemaName;
import io.taskq.postgres.internal.NamedStatements;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * S4 {@code sweep_leaked_reservation_slots}: frees reservation slots whose lease expired (L7).
 *
 * <p>A worker that dies while holding a concurrency slot stops renewing its lease; once the lease
 * passed, this sweep clears the holder so the slot can be taken again. One statement per batch, no
 * {@code job_events} rows; the slot row itself stays (S9 deletes idle keyed rows).
 */
public final class LeakedReservationSlotSweep implements SweepBatch {
  /** The sweep's name in metrics and logs. */
  public static final String NAME = "sweep_leaked_reservation_slots";

  /** Drained like S1 and S2. */
  public static final Cadence CADENCE = Cadence.DRAINED;

  /** {@code TASKQ_EVENT_WRITER_BATCH_SIZE}'s default; the loop passes the configured value. */
  public static final int DEFAULT_BATCH_SIZE = 100;

  private static final String SQL = "io/taskq/postgres/sql/sweep/leaked_reservation_slots.sql";

  private final String freeExpiredSlots;

  /** A sweep of {@code schema}'s {@code reservation_slots}. */
  public LeakedReservationSlotSweep(SchemaName schema) {
    this.freeExpiredSlots = NamedStatements.load(SQL, schema).get("free_expired_slots");
  }

  @Override
  public String sweepName() {
    return NAME;
  }

  @Override
  public int run(Connection tx, int batchSize) throws SQLException {
    SweepArguments.check(NAME, tx, batchSize);
    try (PreparedStatement ps = tx.prepareStatement(freeExpiredSlots)) {
      ps.setInt(1, batchSize);
      return ps.executeUpdate();
    }
  }
}
