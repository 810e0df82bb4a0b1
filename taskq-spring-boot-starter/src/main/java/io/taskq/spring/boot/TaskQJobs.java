package io.taskq.spring.boot;

import io.taskq.JobRequest;
import io.taskq.JobsClient;
import io.taskq.TaskQ;
import io.taskq.bulk.BatchRequest;
import io.taskq.bulk.EnqueuedBatch;
import java.sql.Connection;
import java.util.List;
import java.util.function.Function;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Enqueues inside the application's Spring-managed transaction (SB4): in a {@code @Transactional}
 * method the job is written on the transaction's own connection, so it commits and rolls back with
 * the business write; outside one, it is committed at once on a connection of its own.
 *
 * <pre>{@code
 * @Transactional
 * public void placeOrder(Order order) {
 *   orders.save(order);
 *   jobs.enqueue(JobRequest.of("send-confirmation", order.toJson()));  // commits with the order
 * }
 * }</pre>
 *
 * <p>The connection comes from Spring's {@link DataSourceUtils} for TaskQ's {@code DataSource}: the
 * one bound to the current transaction (a {@code DataSourceTransactionManager}, a {@code
 * JpaTransactionManager}, ...) when there is one. It is never committed, rolled back or closed
 * here. The engine's own traffic (claims, heartbeats, completions, sweeps) never joins a user
 * transaction. Lookups and cancellation go through {@link #client()}, each in its own transaction.
 */
public final class TaskQJobs {
  private final TaskQ taskq;
  private final DataSource dataSource;

  /**
   * Enqueues for {@code taskq} on {@code dataSource}, the data source TaskQ works on.
   *
   * @param taskq the engine
   * @param dataSource the data source TaskQ works on, the one the transactions run on
   */
  public TaskQJobs(TaskQ taskq, DataSource dataSource) {
    this.taskq = taskq;
    this.dataSource = dataSource;
  }

  /**
   * Enqueues one job in the current transaction, if any.
   *
   * @param request the job to enqueue
   * @return the job's id (for a {@code unique_for} request whose twin is live, the twin's)
   * @throws IllegalStateException inside a read-only transaction
   */
  public long enqueue(JobRequest request) {
    return onTransactionConnection(c -> taskq.jobs().enqueue(c, request));
  }

  /**
   * Enqueues jobs in the current transaction, if any; outside one, all or none in a transaction of
   * their own.
   *
   * @param requests the jobs to enqueue
   * @return the ids in the order of {@code requests}
   * @throws IllegalStateException inside a read-only transaction
   */
  public List<Long> enqueueAll(List<JobRequest> requests) {
    return onTransactionConnection(c -> taskq.jobs().enqueueAll(c, requests));
  }

  /**
   * Enqueues a batch (its members and completion hook) in the current transaction, if any.
   *
   * @param request the batch to enqueue
   * @return the batch's id and its members' ids
   * @throws IllegalStateException inside a read-only transaction
   */
  public EnqueuedBatch enqueueBatch(BatchRequest request) {
    return onTransactionConnection(c -> taskq.jobs().enqueueBatch(c, request));
  }

  /**
   * {@return the engine's own client, for lookups and cancellation (each in a transaction of its
   * own)}
   */
  public JobsClient client() {
    return taskq.jobs();
  }

  private <T> T onTransactionConnection(Function<Connection, T> work) {
    if (TransactionSynchronizationManager.isCurrentTransactionReadOnly()) {
      throw new IllegalStateException(
          "cannot enqueue inside a read-only transaction: enqueueing writes a job; call it from a"
              + " read-write @Transactional method");
    }
    Connection connection = DataSourceUtils.getConnection(dataSource);
    try {
      return work.apply(connection);
    } finally {
      DataSourceUtils.releaseConnection(connection, dataSource);
    }
  }
}
