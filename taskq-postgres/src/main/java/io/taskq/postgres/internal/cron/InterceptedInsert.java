package io.taskq.postgres.internal.cron;

import io.taskq.EnqueueInterceptor;
import io.taskq.JobRequest;
import io.taskq.postgres.internal.client.EnqueueChain;
import io.taskq.postgres.internal.client.JobInserter;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * A cron tick's one insert, through the enqueue interceptors when there are some (P6, {@link
 * EnqueueInterceptor.Kind#CRON}): what they changed is checked as a fire is, and stored as {@code
 * inserted}'s one element for the listener. A failure here (an interceptor's exception included) is
 * insert-level: it rolls the whole tick back.
 */
final class InterceptedInsert {
  private final JobInserter inserter;
  private final List<EnqueueInterceptor> interceptors;

  /**
   * @param interceptors the TaskQ's enqueue interceptors, outermost first
   */
  InterceptedInsert(JobInserter inserter, List<EnqueueInterceptor> interceptors) {
    this.inserter = inserter;
    this.interceptors = List.copyOf(interceptors);
  }

  /**
   * Inserts {@code requests}; returns the jobs' ids, and sets what was inserted into {@code
   * inserted}.
   */
  List<Long> run(Connection c, List<JobRequest> requests, List<List<JobRequest>> inserted)
      throws SQLException {
    if (interceptors.isEmpty()) {
      return inserter.insert(c, requests);
    }
    try {
      return EnqueueChain.run(
          interceptors,
          EnqueueInterceptor.Kind.CRON,
          requests,
          true,
          changed -> {
            inserter.validate(changed);
            inserted.set(0, changed);
            try {
              return inserter.insert(c, changed);
            } catch (SQLException e) {
              throw new InsertFailed(e);
            }
          });
    } catch (InsertFailed e) {
      throw e.sql;
    }
  }
}
