package io.taskq.postgres.internal.sweep;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * One bounded batch of a maintenance sweep: the unit the sweep loop runs, drains and times (guide
 * §1-§2, B1-B5, S14).
 *
 * <p><b>Contract.</b> {@link #run(Connection, int)} is handed an <em>open</em> transaction in which
 * the executor has already applied the batch's {@code statement_timeout} (B2, B3) and, for a
 * leader-only sweep, taken the leader fence (D8). The sweep:
 *
 * <ul>
 *   <li>transitions at most {@code batchSize} rows per eligibility arm (S1 has two arms), selecting
 *       with {@code FOR UPDATE SKIP LOCKED} so two leaders never transition one row twice (U2);
 *   <li>runs a constant number of statements whatever the batch size: never one round trip per row
 *       (B1);
 *   <li>selects on {@code statement_timestamp()} and writes {@code clock_timestamp()}, with the
 *       microsecond ladder on batched event rows (B4);
 *   <li>never commits, rolls back, changes auto-commit or sets a session-level setting: the
 *       executor owns the transaction, so an aborted batch commits nothing (B5);
 *   <li>returns the number of rows the batch acted on; 0 ends the drain.
 * </ul>
 *
 * Implementations are stateless apart from their prepared SQL and safe to call from the loop
 * thread; a sweep is never run concurrently with itself by one process.
 */
public interface SweepBatch {
  /**
   * The sweep's name: the {@code sweep_name} metric label, e.g. {@code reclaim_expired_locks}.
   * Stable across releases (dashboards and alerts use it).
   */
  String sweepName();

  /**
   * Runs one batch in {@code tx}.
   *
   * @param tx an open transaction with the timeout applied (and the fence taken); do not commit
   * @param batchSize the most rows one arm of this batch may touch, at least 1
   * @return the rows this batch acted on (0 when nothing was eligible)
   * @throws SQLException on any database error; SQLSTATE 57014 (the batch's timeout) is an aborted
   *     batch, which the caller counts and retries on a later call
   */
  int run(Connection tx, int batchSize) throws SQLException;
}
