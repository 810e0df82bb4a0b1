package io.taskq.postgres.internal.sweep;

import io.taskq.core.SchemaName;
import io.taskq.core.internal.NotifyChannels;
import io.taskq.postgres.internal.NamedStatements;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Sweep 2, {@code sweep_deadline_exceeded} (S2): fails jobs that passed their {@code
 * schedule_to_close} deadline.
 *
 * <p>Scheduled, pending and running jobs whose {@code deadline_at} passed become {@code failed}
 * with {@code error_class = 'DeadlineExceeded'}, whatever attempts they had left; a running attempt
 * loses its lease, so its handler's late completion matches nothing (D9). One {@code job_attempts}
 * and one {@code job_events} row ({@code kind = 'deadline_exceeded'}) per job, all in one statement
 * ({@code deadline.sql}).
 */
public final class DeadlineSweep implements SweepBatch {
  /** The sweep's {@code sweep_name}. */
  public static final String NAME = "sweep_deadline_exceeded";

  private final String sql;
  private final String wakeChannel;

  /** The sweep for {@code schema}. */
  public DeadlineSweep(SchemaName schema) {
    this.sql = NamedStatements.load("io/taskq/postgres/sql/deadline.sql", schema).get(NAME);
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
