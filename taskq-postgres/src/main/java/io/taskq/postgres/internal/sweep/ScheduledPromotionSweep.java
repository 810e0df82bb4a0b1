package io.taskq.postgres.internal.sweep;

import io.taskq.core.SchemaName;
import io.taskq.core.internal.NotifyChannels;
import io.taskq.postgres.internal.NamedStatements;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Sweep 3, {@code scheduled_to_pending} (S3): promotes due scheduled jobs to pending and fires one
 * wake NOTIFY when any moved.
 *
 * <p>Writes no {@code job_events} rows: promotion is scheduler bookkeeping, and a row per promotion
 * would grow without bound under a sustained admission-denial loop. Runs on the 1-second loop,
 * exactly one batch per tick ({@link Cadence#EVERY_SECOND}); a larger backlog drains across ticks.
 * One statement ({@code promote.sql}).
 */
public final class ScheduledPromotionSweep implements SweepBatch {
  /** The sweep's {@code sweep_name}. */
  public static final String NAME = "scheduled_to_pending";

  private final String sql;
  private final String wakeChannel;

  /** The sweep for {@code schema}. */
  public ScheduledPromotionSweep(SchemaName schema) {
    this.sql = NamedStatements.load("io/taskq/postgres/sql/promote.sql", schema).get(NAME);
    this.wakeChannel = NotifyChannels.of(schema).wake().name();
  }

  @Override
  public String sweepName() {
    return NAME;
  }

  @Override
  public int run(Connection tx, int batchSize) throws SQLException {
    try (PreparedStatement ps = tx.prepareStatement(sql)) {
      ps.setInt(1, batchSize);
      ps.setString(2, wakeChannel);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getInt(1);
      }
    }
  }
}
