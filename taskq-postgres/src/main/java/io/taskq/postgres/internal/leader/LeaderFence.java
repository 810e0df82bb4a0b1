package io.taskq.postgres.internal.leader;

import io.taskq.SchemaName;
import io.taskq.postgres.internal.NamedStatements;
import io.taskq.postgres.internal.sweep.BatchFence;
import io.taskq.postgres.internal.sweep.FenceRefusedException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The fence every leader-only batch takes inside its own transaction, so that a stale leader can
 * never run a batch beside the real one (D8).
 *
 * <h2>Why not simply {@code pg_try_advisory_xact_lock} on the leader key</h2>
 *
 * The leader holds the session lock on key K on its dedicated connection, and its batches run on
 * pooled connections: other sessions. Advisory locks conflict between sessions even within one
 * process, so an exclusive xact lock on K from a batch would always fail while its own leader holds
 * K. (Running every batch on the dedicated connection would make that work, but would serialise the
 * sweep loop and the 1-second loop on one connection and tie every batch to the lock session.)
 *
 * <h2>The design</h2>
 *
 * Two locks derived from the same 64 bits: the election lock K (bigint key space) and the fence F,
 * the same bits as an {@code (int4, int4)} pair, which is a separate lock in PostgreSQL's other
 * advisory key space.
 *
 * <ol>
 *   <li><b>Every leader batch</b>, first thing in its transaction, takes F <em>shared</em> with
 *       {@code pg_try_advisory_xact_lock_shared} (never waiting), <em>then</em> proves in {@code
 *       pg_locks} that the backend pid recorded at election still holds K granted. If either fails
 *       the batch rolls back having changed nothing ({@link FenceRefusedException}). F stays held
 *       until the batch commits. Batches of one leader share F, so its loops do not serialise.
 *   <li><b>A new leader</b>, right after acquiring K and before its first batch, takes F
 *       <em>exclusively</em> in a short transaction of its own (the barrier, {@link
 *       LeaderElector}). It waits there until every batch still holding F shared (necessarily a
 *       previous leader's) has ended.
 * </ol>
 *
 * Why that is enough: suppose a batch B of an old leader A overlaps a batch of the new leader N. B
 * took F shared and then found A's session holding K, so A held K at that moment, after B locked F.
 * N acquired K later, when A's session had let it go, and then passed the barrier, which needs F
 * exclusively, so B must have ended before. And a batch of A that starts after N's barrier finds K
 * held by N's session, not A's, and refuses. The order inside the fence statement (lock F, then
 * check K) is what closes the window; the SQL forces it with a {@code CASE}.
 *
 * <p>Residual assumption: backend pids are not reused between A's session dying and A's next batch
 * being fenced by a session of N that got the very same pid; PostgreSQL allocates pids from the OS,
 * so this needs an OS pid wrap-around inside one sweep interval.
 *
 * <p>A rolling deploy with two lock <em>names</em> (old and new release) has two independent
 * elections and fences: both leaders run. Their batches stay row-safe through {@code FOR UPDATE
 * SKIP LOCKED} (U2); see docs/upgrading.md.
 */
public final class LeaderFence implements BatchFence {
  private final Leadership leadership;
  private final String sql;

  /** The fence of {@code leadership}'s term. */
  public LeaderFence(SchemaName schema, Leadership leadership) {
    this.leadership = leadership;
    this.sql = NamedStatements.load(LeaderElector.STATEMENTS, schema).get("fence");
  }

  @Override
  public void take(Connection tx) throws SQLException {
    boolean fenced;
    try (PreparedStatement ps = tx.prepareStatement(sql)) {
      ps.setLong(1, leadership.classId());
      ps.setLong(2, leadership.objId());
      ps.setInt(3, leadership.backendPid());
      ps.setInt(4, leadership.fenceHigh());
      ps.setInt(5, leadership.fenceLow());
      try (ResultSet rs = ps.executeQuery()) {
        fenced = rs.next() && rs.getBoolean(1);
      }
    }
    if (!fenced) {
      throw FenceRefusedException.leadershipLost(
          "the leader fence of '"
              + leadership.lock().name()
              + "' refused this batch: backend "
              + leadership.backendPid()
              + " no longer holds the leader lock, or a new leader is taking over");
    }
  }

  /** The term this fence proves. */
  public Leadership leadership() {
    return leadership;
  }
}
