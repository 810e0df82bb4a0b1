package io.taskq.postgres.internal.sweep;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * What a batch transaction must hold before it touches a row: the leader fence (D8), a daily
 * sweep's own lock (M1, S11), both, or nothing.
 *
 * <p>{@link #take(Connection)} runs inside the batch's transaction, after its timeout is applied
 * and before the sweep's statements, and holds whatever it takes until the transaction ends. When
 * the fence cannot be taken it throws {@link FenceRefusedException}; the batch then rolls back
 * having changed nothing.
 */
@FunctionalInterface
public interface BatchFence {
  /** No fence: for on-demand callers that are not leader-gated. */
  BatchFence NONE = tx -> {};

  /**
   * Takes the fence inside {@code tx}.
   *
   * @throws FenceRefusedException when the fence is held elsewhere or leadership is not proven
   * @throws SQLException on a database error
   */
  void take(Connection tx) throws SQLException;

  /** This fence, then {@code next}, in the same transaction. */
  default BatchFence andThen(BatchFence next) {
    return tx -> {
      take(tx);
      next.take(tx);
    };
  }
}
