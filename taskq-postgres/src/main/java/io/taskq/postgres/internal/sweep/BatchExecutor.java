package io.taskq.postgres.internal.sweep;

import io.taskq.SchemaName;
import io.taskq.postgres.internal.NamedStatements;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.time.Duration;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one {@link SweepBatch} inside the bounded-batch envelope (guide §2, B1-B5).
 *
 * <p>The envelope, in one short transaction:
 *
 * <ol>
 *   <li>capture the transaction's {@code statement_timeout} and apply the batch's with {@code
 *       set_config('statement_timeout', ms, true)}: SET LOCAL semantics, a bindable value, one
 *       statement (B2, B3), which also bounds the time the transaction may sit idle between the
 *       batch's statements ({@code idle_in_transaction_session_timeout}, the same value), so a
 *       frozen client's open batch is ended by the server. The timeout is the enforcement; the
 *       batch size is only a tuning value;
 *   <li>take the {@link BatchFence} (the leader fence, D8);
 *   <li>run the sweep's constant number of statements (B1);
 *   <li>commit; or, for a batch nested in a caller's transaction, restore the captured timeouts,
 *       still inside the transaction, and release the savepoint.
 * </ol>
 *
 * A batch in its own transaction keeps its bounds until its commit, which ends them (they are SET
 * LOCAL): a client frozen after its last statement, before the commit reaches the server, is still
 * ended by the idle bound, and with it the batch's share of the leader fence (R7). Restoring them
 * before the commit, as every batch did until 2026-12-04, left that moment unbounded, and a leader
 * frozen there kept the next leader's barrier waiting until it was thawed.
 *
 * <p>On any error the transaction (or savepoint) is rolled back and the error rethrown: no restore
 * is needed on that path, since rolling back restores the setting, and nothing of the batch commits
 * (B5). Classifying the error (an aborted batch is SQLSTATE 57014) is the caller's job. So a batch
 * costs exactly: the timeout statement, the fence's statements, the sweep's statements, and the
 * commit (a nested batch: the restore statement instead of the commit), whatever its size.
 *
 * <p>Why capture and restore rather than rely on SET LOCAL's scope: SET LOCAL lasts until the end
 * of the <em>transaction</em>, not of a savepoint, so a sweep nested in a caller's open transaction
 * would otherwise leave its bound on the caller's later statements. A session-level {@code SET}
 * would be worse: it outlives the pooled connection's checkout and caps unrelated borrowers.
 */
public final class BatchExecutor {
  private static final Logger LOG = LoggerFactory.getLogger(BatchExecutor.class);
  private static final String STATEMENTS = "io/taskq/postgres/sql/sweep_batch.sql";

  private final NamedStatements sql;

  /** An executor for sweeps of {@code schema}. */
  public BatchExecutor(SchemaName schema) {
    this.sql = NamedStatements.load(STATEMENTS, schema);
  }

  /**
   * Runs one batch in its own transaction on a connection borrowed from {@code dataSource}, and
   * commits it.
   *
   * @param timeout the batch's server-side statement timeout, positive
   * @return the rows the batch acted on
   * @throws SQLException the batch's error, after rolling back (SQLSTATE 57014 for an aborted
   *     batch, {@link FenceRefusedException} when the fence refused)
   */
  public int runInOwnTransaction(
      DataSource dataSource, SweepBatch sweep, int batchSize, Duration timeout, BatchFence fence)
      throws SQLException {
    String timeoutMs = millis(timeout);
    try (Connection c = dataSource.getConnection()) {
      boolean autoCommit = c.getAutoCommit();
      c.setAutoCommit(false);
      try {
        int rows = envelope(c, sweep, batchSize, timeoutMs, fence, false);
        c.commit();
        afterCommit(sweep);
        return rows;
      } catch (SQLException | RuntimeException e) {
        afterRollback(sweep);
        rollbackQuietly(c, e);
        throw e;
      } finally {
        restoreAutoCommit(c, autoCommit);
      }
    }
  }

  /**
   * Runs one batch inside the caller's open transaction, under a savepoint. The caller's {@code
   * statement_timeout} is the same afterwards, whether the batch succeeded or failed; the caller
   * commits or rolls back. A {@link CommitAware} sweep publishes nothing for a nested batch: its
   * commit belongs to the caller.
   *
   * @param callerTx a connection with auto-commit off (an open transaction)
   * @throws IllegalArgumentException when {@code callerTx} is in auto-commit mode
   * @throws SQLException the batch's error, after rolling back to the savepoint
   */
  public int runNested(
      Connection callerTx, SweepBatch sweep, int batchSize, Duration timeout, BatchFence fence)
      throws SQLException {
    String timeoutMs = millis(timeout);
    if (callerTx.getAutoCommit()) {
      throw new IllegalArgumentException(
          "a nested sweep batch needs the caller's open transaction, but the connection is in"
              + " auto-commit mode; use runInOwnTransaction instead");
    }
    Savepoint savepoint = callerTx.setSavepoint();
    try {
      int rows = envelope(callerTx, sweep, batchSize, timeoutMs, fence, true);
      callerTx.releaseSavepoint(savepoint);
      return rows;
    } catch (SQLException | RuntimeException e) {
      rollbackQuietly(callerTx, savepoint, e);
      throw e;
    } finally {
      afterRollback(sweep);
    }
  }

  /**
   * The batch's bounds, fence and statements; {@code nested} restores the captured bounds at the
   * end, for the caller's later statements (an own transaction's commit ends them instead).
   */
  private int envelope(
      Connection tx,
      SweepBatch sweep,
      int batchSize,
      String timeoutMs,
      BatchFence fence,
      boolean nested)
      throws SQLException {
    if (batchSize < 1) {
      throw new IllegalArgumentException(
          "batchSize of sweep " + sweep.sweepName() + " must be at least 1, was " + batchSize);
    }
    String[] previous = applyTimeout(tx, timeoutMs);
    fence.take(tx);
    int rows = sweep.run(tx, batchSize);
    if (nested) {
      restoreTimeout(tx, previous);
    }
    return rows;
  }

  /** Applies the batch's bounds; returns the statement and idle timeouts they replaced. */
  private String[] applyTimeout(Connection tx, String timeoutMs) throws SQLException {
    try (PreparedStatement ps = tx.prepareStatement(sql.get("apply_batch_bounds"))) {
      ps.setString(1, timeoutMs);
      ps.setString(2, timeoutMs);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return new String[] {rs.getString("previous"), rs.getString("previous_idle")};
      }
    }
  }

  private void restoreTimeout(Connection tx, String[] previous) throws SQLException {
    try (PreparedStatement ps = tx.prepareStatement(sql.get("restore_batch_bounds"))) {
      ps.setString(1, previous[0]);
      ps.setString(2, previous[1]);
      ps.executeQuery().close();
    }
  }

  private static String millis(Duration timeout) {
    if (timeout.isNegative() || timeout.isZero() || timeout.toMillis() > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "a sweep batch's statement timeout must be between 1 ms and "
              + Integer.MAX_VALUE
              + " ms (0 would disable it), was "
              + timeout);
    }
    return Long.toString(Math.max(1, timeout.toMillis()));
  }

  private static void afterCommit(SweepBatch sweep) {
    if (sweep instanceof CommitAware aware) {
      aware.afterCommit();
    }
  }

  private static void afterRollback(SweepBatch sweep) {
    if (sweep instanceof CommitAware aware) {
      aware.afterRollback();
    }
  }

  private static void rollbackQuietly(Connection c, Throwable cause) {
    try {
      c.rollback();
    } catch (SQLException e) {
      cause.addSuppressed(e);
      LOG.debug("rollback of a failed sweep batch failed too (the connection is likely gone)", e);
    }
  }

  private static void rollbackQuietly(Connection c, Savepoint savepoint, Throwable cause) {
    try {
      c.rollback(savepoint);
    } catch (SQLException e) {
      cause.addSuppressed(e);
      LOG.debug("rollback to the savepoint of a failed nested sweep batch failed too", e);
    }
  }

  private static void restoreAutoCommit(Connection c, boolean autoCommit) {
    try {
      c.setAutoCommit(autoCommit);
    } catch (SQLException e) {
      LOG.debug("could not restore auto-commit after a sweep batch", e);
    }
  }
}
