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
 * <p>Measured by the database clock alone: the job's {@code started_at} (set by the claim of its
 * first and only attempt) minus its {@code created_at} (set by the enqueue statement), for the jobs
 * this run enqueued. So it covers the enqueue's commit, the notification, the wake-up and the
 * claim.
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
    long first = 0;
    long last = 0;
    for (int i = 1; i <= jobs; i++) {
      LockSupport.parkNanos(next - System.nanoTime());
      next += every.toNanos();
      last = client.enqueue(JobRequest.of(EnqueueRun.ACTOR, "{\"n\":" + i + "}"));
      first = i == 1 ? last : first;
    }
    worker.awaitSucceeded(jobs, n -> {});
    return percentiles(first, last);
  }

  private Latency percentiles(long first, long last) throws SQLException {
    String sql =
        "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY ms),"
            + " percentile_cont(0.99) WITHIN GROUP (ORDER BY ms), max(ms)"
            + " FROM (SELECT extract(epoch FROM j.started_at - j.created_at) * 1000 AS ms"
            + " FROM "
            + db.table("jobs")
            + " j WHERE j.id BETWEEN ? AND ? AND j.attempt = 1) t";
    try (Connection c = db.pool.getConnection();
        PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setLong(1, first);
      ps.setLong(2, last);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return new Latency(rs.getDouble(1), rs.getDouble(2), rs.getDouble(3));
      }
    }
  }
}
