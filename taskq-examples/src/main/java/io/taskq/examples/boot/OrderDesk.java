package io.taskq.examples.boot;

import io.taskq.JobRequest;
import io.taskq.spring.boot.TaskQJobs;
import java.util.Objects;
import org.springframework.http.HttpStatus;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.web.bind.annotation.ResponseStatus;

/** Places orders: the order's row, its confirmation job and the stock, in one transaction. */
@Service
public class OrderDesk {
  private final JdbcTemplate jdbc;
  private final TaskQJobs jobs;

  /** The desk writing with {@code jdbc} and enqueueing with {@code jobs}. */
  public OrderDesk(JdbcTemplate jdbc, TaskQJobs jobs) {
    this.jdbc = jdbc;
    this.jobs = jobs;
  }

  /**
   * Writes the order, enqueues its confirmation, then takes the stock. The job is written on this
   * transaction's connection: when the stock does not suffice, the exception rolls back the order
   * and its job together, and no worker ever sees the job.
   */
  @Transactional
  public PlacedOrder place(String item, int quantity) {
    long order =
        Objects.requireNonNull(
            jdbc.queryForObject(
                "INSERT INTO orders (item, quantity) VALUES (?, ?) RETURNING id",
                Long.class,
                item,
                quantity));
    long job = jobs.enqueue(JobRequest.of(OrdersApplication.CONFIRM_ORDER, Long.toString(order)));
    int taken =
        jdbc.update(
            "UPDATE stock SET available = available - ? WHERE item = ? AND available >= ?",
            quantity,
            item,
            quantity);
    if (taken == 0) {
      throw new OutOfStockException(item, quantity);
    }
    return new PlacedOrder(order, job);
  }

  /** The order's id and its confirmation job's id. */
  public record PlacedOrder(long order, long job) {}

  /** Fewer items in stock than ordered: answered 409, and the transaction rolls back. */
  @ResponseStatus(HttpStatus.CONFLICT)
  public static final class OutOfStockException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    OutOfStockException(String item, int quantity) {
      super("fewer than " + quantity + " of " + item + " in stock");
    }
  }
}
