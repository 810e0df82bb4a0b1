package io.taskq.postgres.internal.sweep;

import io.taskq.core.SchemaName;
import io.taskq.core.internal.AdvisoryLockName;
import io.taskq.postgres.internal.NamedStatements;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * The batch of a sweep that is one statement under a transaction-scoped try-lock (M1): the
 * resource's {@code try_lock} statement takes the lock with {@code pg_try_advisory_xact_lock}, and
 * when another process holds it the batch does nothing and returns 0; else the named statement
 * runs, bound with the age in microseconds and the batch size, and returns its row count. Prune and
 * archive expiry (S11) are this shape.
 */
final class LockedAgeStatement {
  private final String tryLock;
  private final String statement;
  private final long lockKey;
  private final SweepPeriod age;

  LockedAgeStatement(
      SchemaName schema,
      String resource,
      String statementName,
      AdvisoryLockName.Purpose lock,
      SweepPeriod age) {
    NamedStatements sql = NamedStatements.load(resource, schema);
    this.tryLock = sql.get("try_lock");
    this.statement = sql.get(statementName);
    this.lockKey = AdvisoryLockName.of(lock, schema).key();
    this.age = age;
  }

  /** Runs one batch of the sweep {@code sweepName}; 0 when another process holds the lock. */
  int run(String sweepName, Connection tx, int batchSize) throws SQLException {
    SweepArguments.check(sweepName, tx, batchSize);
    if (!TransactionLock.tryTake(tx, tryLock, lockKey)) {
      return 0;
    }
    try (PreparedStatement ps = tx.prepareStatement(statement)) {
      ps.setLong(1, age.micros());
      ps.setInt(2, batchSize);
      return ps.executeUpdate();
    }
  }
}
