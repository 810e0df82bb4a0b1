package io.taskq.postgres.internal.cron;

import java.sql.SQLException;

/**
 * Carries a cron tick's insert {@link SQLException} out of the enqueue interceptor chain, which
 * takes no checked exceptions; {@link InterceptedInsert} throws {@link #sql} again outside it.
 */
final class InsertFailed extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** The insert's failure. */
  @SuppressWarnings("serial") // never serialized
  final SQLException sql;

  InsertFailed(SQLException sql) {
    super(sql);
    this.sql = sql;
  }
}
