package io.taskq.postgres.internal.observe;

import io.taskq.SchemaName;
import io.taskq.operations.FinishedMinute;
import io.taskq.operations.QueueBacklog;
import io.taskq.postgres.internal.NamedStatements;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * The reads behind the root's probes and gauges ({@code observe.sql}): the pending backlog per
 * queue, the finished jobs per minute, and the readiness ping. Each runs under a 5-second (the
 * ping: the caller's) statement timeout.
 */
public final class QueueObservations {
  private static final int TIMEOUT_SECONDS = 5;

  private final NamedStatements sql;

  /** The observations of {@code schema}. */
  public QueueObservations(SchemaName schema) {
    this.sql = NamedStatements.load("io/taskq/postgres/sql/observe.sql", schema);
  }

  /** Pending jobs per queue and the age of the oldest runnable one, by the database clock. */
  public List<QueueBacklog> queueBacklog(DataSource dataSource) throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(sql.get("queue_backlog"))) {
      ps.setQueryTimeout(TIMEOUT_SECONDS);
      List<QueueBacklog> out = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(
              new QueueBacklog(
                  rs.getString("queue"),
                  rs.getLong("depth"),
                  Duration.ofNanos(Math.max(0, rs.getLong("oldest_us")) * 1000)));
        }
      }
      return out;
    }
  }

  /** Jobs that finished within {@code window} before now, per minute of the database clock. */
  public List<FinishedMinute> finishedPerMinute(DataSource dataSource, Duration window)
      throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(sql.get("finished_per_minute"))) {
      ps.setQueryTimeout(TIMEOUT_SECONDS);
      ps.setLong(1, window.toSeconds());
      List<FinishedMinute> out = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(
              new FinishedMinute(
                  Instant.ofEpochSecond(rs.getLong("minute_epoch")),
                  rs.getLong("succeeded"),
                  rs.getLong("failed")));
        }
      }
      return out;
    }
  }

  /** Borrows a connection and runs one trivial statement within {@code timeout} (whole seconds). */
  public void ping(DataSource dataSource, Duration timeout) throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(sql.get("ping"))) {
      ps.setQueryTimeout((int) Math.max(1, (timeout.toMillis() + 999) / 1000));
      ps.executeQuery().close();
    }
  }
}
