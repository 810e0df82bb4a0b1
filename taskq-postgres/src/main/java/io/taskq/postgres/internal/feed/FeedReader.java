package io.taskq.postgres.internal.feed;

import io.taskq.SchemaName;
import io.taskq.postgres.internal.NamedStatements;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Reads one page of the feed in one statement, so one snapshot (E1, E2, D12).
 *
 * <p>The statement returns up to {@code limit} rows after the cursor whose writers are below the
 * snapshot's xmin, each with the time until it is older than the visibility delay. This class keeps
 * the prefix of rows that are old enough and drops the rest: delivering a ripe row past a young one
 * would move the cursor past the young one for good. Runs in the connection's current mode; in
 * auto-commit the statement is its own read-only transaction.
 */
public final class FeedReader {
  private final NamedStatements sql;
  private final long delayMicros;
  private final int timeoutSeconds;

  public FeedReader(SchemaName schema, Duration visibilityDelay, int timeoutSeconds) {
    this.sql = NamedStatements.load("io/taskq/postgres/sql/feed.sql", schema);
    this.delayMicros = visibilityDelay.toNanos() / 1000;
    this.timeoutSeconds = timeoutSeconds;
  }

  /** The deliverable rows after {@code after}, at most {@code limit}, with the watermark. */
  public FeedRead read(Connection c, FeedPosition after, int limit) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.get("poll"))) {
      ps.setQueryTimeout(timeoutSeconds);
      ps.setLong(1, delayMicros);
      ps.setString(2, after.writerXidText());
      ps.setLong(3, after.eventId());
      ps.setInt(4, limit);
      try (ResultSet rs = ps.executeQuery()) {
        return collect(rs, limit);
      }
    }
  }

  private FeedRead collect(ResultSet rs, int limit) throws SQLException {
    List<FeedRow> rows = new ArrayList<>();
    FeedPosition watermark = FeedPosition.ZERO;
    Duration ripensIn = null;
    boolean heldBack = false;
    int seen = 0;
    long lagMicros = 0;
    while (rs.next()) {
      watermark = new FeedPosition(parseXid(rs.getString("mark_xid")), rs.getLong("mark_id"));
      heldBack = rs.getBoolean("held_back");
      String xid = rs.getString("writer_xid");
      if (xid == null) {
        break; // the page was empty: the one row carries only the watermark
      }
      seen++;
      long ripensInMicros = rs.getLong("ripens_in_us");
      if (ripensIn == null && ripensInMicros > 0) {
        ripensIn = Duration.ofNanos(ripensInMicros * 1000);
      }
      if (ripensIn == null) {
        rows.add(row(rs, parseXid(xid)));
        lagMicros = delayMicros - ripensInMicros; // the row's age at the statement's time
      }
    }
    boolean full = seen == limit && ripensIn == null;
    Duration lag = Duration.ofNanos(Math.max(0, lagMicros) * 1000);
    return new FeedRead(rows, full, ripensIn, heldBack, watermark, lag);
  }

  private static FeedRow row(ResultSet rs, long xid) throws SQLException {
    return new FeedRow(
        new FeedPosition(xid, rs.getLong("event_id")),
        rs.getLong("job_id"),
        rs.getString("actor"),
        rs.getString("queue"),
        rs.getInt("attempt"),
        rs.getString("disposition"),
        rs.getString("error_class"),
        rs.getString("error_message"),
        rs.getObject("occurred_at", OffsetDateTime.class).toInstant());
  }

  private static long parseXid(@Nullable String text) throws SQLException {
    if (text == null) {
      throw new SQLException("the feed statement returned no transaction id");
    }
    return Long.parseUnsignedLong(text);
  }
}
