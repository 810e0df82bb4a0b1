package io.taskq.benchmarks;

import io.taskq.JobRequest;
import io.taskq.JobsClient;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import javax.sql.DataSource;

/**
 * Figure (c): pickup latency of single jobs enqueued at a light rate from another connection pool,
 * while the worker polls only every {@link #POLL_INTERVAL}: only LISTEN/NOTIFY can explain a fast
 * pickup.
 *
 * <p>Measured by the database clock alone: the attempt's {@code job_attempts.started_at} (set by
 * the claim) minus {@code jobs.created_at} (set by the enqueue statement), for attempt 1. So it
 * covers the enqueue's commit, the notification, the wake-up and the claim.
 */
final class PickupRun {
  static final Duration POLL_INTERVAL = Duration.ofSeconds(30);

  private final BenchDatabase db;

  PickupRun(BenchDatabase db) {
    this.db = db;
  }

  /** Latency percentiles in milliseconds. */
  record Latency(double p50, double p99, double max) {}

  /** Enqueues {@code jobs} one at a time, {@code every} apart, and waits for all to succeed. */
  Latency measure(WorkerRun worker, DataSource other, int jobs, Duration every)
      throws SQLException {
    JobsClient client = Roots.producer(other, db.schema).jobs();
    long next = System.nanoTime();
    for (int i = 1; i <= jobs; i++) {
      LockSupport.parkNanos(next - System.nanoTime());
      next += every.toNanos();
      client.enqueue(JobRequest.of(EnqueueRun.ACTOR, "{\"n\":" + i + "}"));
    }
    worker.awaitSucceeded(jobs, n -> {});
    return percentiles();
  }

  private Latency percentiles() throws SQLException {
    String sql =
        "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY ms),"
            + " percentile_cont(0.99) WITHIN GROUP (ORDER BY ms), max(ms)"
            + " FROM (SELECT extract(epoch FROM a.started_at - j.created_at) * 1000 AS ms"
            + " FROM "
            + db.table("jobs")
            + " j JOIN "
            + db.table("job_attempts")
            + " a ON a.job_id = j.id AND a.attempt = 1) t";
    try (Connection c = db.pool.getConnection();
        PreparedStatement ps = c.prepareStatement(sql);
        ResultSet rs = ps.executeQuery()) {
      rs.next();
      return new Latency(rs.getDouble(1), rs.getDouble(2), rs.getDouble(3));
    }
  }
}
