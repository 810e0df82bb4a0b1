package io.taskq.postgres.internal.feed;

import io.taskq.SchemaName;
import io.taskq.feed.ReclaimFeedLag;
import io.taskq.postgres.internal.NamedStatements;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;

/** Reads how far the feed is held back by running transactions (D12), in one statement. */
public final class FeedLagReader {
  private final NamedStatements sql;
  private final int timeoutSeconds;

  public FeedLagReader(SchemaName schema, int timeoutSeconds) {
    this.sql = NamedStatements.load("io/taskq/postgres/sql/feed.sql", schema);
    this.timeoutSeconds = timeoutSeconds;
  }

  public ReclaimFeedLag read(Connection c) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.get("lag"))) {
      ps.setQueryTimeout(timeoutSeconds);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        int pid = rs.getInt("blocker_pid");
        Integer blocker = rs.wasNull() ? null : pid;
        return new ReclaimFeedLag(
            rs.getLong("events"),
            micros(rs.getLong("oldest_event_age_us")),
            blocker,
            micros(rs.getLong("blocker_age_us")));
      }
    }
  }

  /** A non-negative duration; SQL NULL reads as 0. */
  private static Duration micros(long micros) {
    return Duration.ofNanos(Math.max(0, micros) * 1000);
  }
}
