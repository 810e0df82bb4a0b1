package io.taskq.postgres.internal.leader;

import io.taskq.SchemaName;
import io.taskq.core.internal.AdvisoryLockName;
import io.taskq.postgres.internal.NamedStatements;
import io.taskq.postgres.internal.sweep.BatchFence;
import io.taskq.postgres.internal.sweep.FenceRefusedException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * A daily sweep's own lock ({@code taskq:prune:{schema}}, {@code taskq:archive_expiry:{schema}},
 * M1, S11), taken transaction-scoped inside each of its batches with {@code
 * pg_try_advisory_xact_lock}. Nobody holds these as session locks, so a pooled batch connection can
 * take them directly; a busy lock means another process (an old release's leader during a rolling
 * deploy) runs the sweep now, and the batch is skipped until a later tick.
 */
public final class OwnLockFence implements BatchFence {
  private final AdvisoryLockName lock;
  private final String sql;

  /** The fence of {@code lock}. */
  public OwnLockFence(SchemaName schema, AdvisoryLockName lock) {
    this.lock = lock;
    this.sql = NamedStatements.load(LeaderElector.STATEMENTS, schema).get("own_lock");
  }

  @Override
  public void take(Connection tx) throws SQLException {
    boolean locked;
    try (PreparedStatement ps = tx.prepareStatement(sql)) {
      ps.setLong(1, lock.key());
      try (ResultSet rs = ps.executeQuery()) {
        locked = rs.next() && rs.getBoolean(1);
      }
    }
    if (!locked) {
      throw FenceRefusedException.lockBusy(
          "the lock '" + lock.name() + "' is held by another process; skipping this batch");
    }
  }
}
