package io.taskq.postgres.internal.sweep;

import java.sql.Connection;
import java.sql.SQLException;

/** The checks every {@link SweepBatch#run} makes on its arguments before touching the database. */
final class SweepArguments {
  private SweepArguments() {}

  /**
   * Checks the batch size and that {@code tx} is inside a transaction: a sweep of several
   * statements must never let one of them commit alone.
   *
   * @throws IllegalArgumentException naming the sweep when {@code batchSize} is below 1 or {@code
   *     tx} is in auto-commit mode
   */
  static void check(String sweep, Connection tx, int batchSize) throws SQLException {
    if (batchSize < 1) {
      throw new IllegalArgumentException(
          sweep + ": batch size must be at least 1, was " + batchSize);
    }
    if (tx.getAutoCommit()) {
      throw new IllegalArgumentException(
          sweep + ": needs an open transaction (auto-commit off); the caller commits the batch");
    }
  }
}
