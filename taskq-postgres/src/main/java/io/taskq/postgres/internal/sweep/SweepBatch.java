package io.taskq.postgres.internal.sweep;

/**
 * One bounded batch of one sweep. tx is an open transaction (autocommit off) with the statement
 * timeout applied and the leader fence taken; the sweep runs a constant number of statements and
 * must not commit or roll back. Returns the rows it transitioned or deleted.
 */
public interface SweepBatch {
  String sweepName();

  int run(java.sql.Connection tx, int batchSize) throws java.sql.SQLException;
}
