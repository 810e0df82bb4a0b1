package io.taskq.feed;

import static org.awaitility.Awaitility.await;

import io.taskq.SchemaName;
import io.taskq.core.internal.NotifyChannels;
import io.taskq.postgres.internal.feed.FeedPosition;
import io.taskq.postgres.internal.migrate.Migrations;
import io.taskq.postgres.testing.Db;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * Writes crash-reclaim events the way the lease-reclaim sweep (S1) does, for the feed's tests: one
 * batched INSERT per transaction with the microsecond ladder, the writer's transaction id by
 * default, and {@code pg_notify} on the events channel in the same transaction.
 */
public final class FeedFixture {
  final SchemaName schema;
  final DataSource ds;
  final Db db;
  final String channel;

  public FeedFixture(DataSource ds, String schema) {
    this.schema = SchemaName.of(schema);
    this.ds = ds;
    this.db = new Db(ds);
    this.channel = NotifyChannels.of(this.schema).events().name();
  }

  /** Migrates the schema. */
  public FeedFixture migrate() {
    Migrations.apply(ds, schema);
    return this;
  }

  public String t(String table) {
    return schema.quoted() + "." + table;
  }

  /** Empties the events and resets the retention watermark, between tests of one class. */
  public void reset() {
    db.execute("TRUNCATE " + t("job_events"));
    setWatermark(FeedPosition.ZERO);
  }

  /** Inserts {@code n} reclaim events in the caller's transaction and notifies; their ids. */
  public List<Long> insert(Connection c, int n) throws SQLException {
    List<Long> ids = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "WITH stamp AS MATERIALIZED (SELECT clock_timestamp() AS at)"
                + " INSERT INTO "
                + t("job_events")
                + " (job_id, kind, actor, queue, attempt, disposition, error_class, error_message,"
                + " occurred_at)"
                + " SELECT 1000 + g, 'reclaimed', 'mail', 'q', g % 3 + 1,"
                + " CASE g % 3 WHEN 0 THEN 'repended' WHEN 1 THEN 'crashed' ELSE 'cancelled' END,"
                + " 'LeaseExpired', 'the lease expired', s.at + (g - 1) * interval '1 microsecond'"
                + " FROM generate_series(1, ?) g CROSS JOIN stamp s ORDER BY g"
                + " RETURNING event_id")) {
      ps.setInt(1, n);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          ids.add(rs.getLong(1));
        }
      }
    }
    notify(c);
    ids.sort(null);
    return ids;
  }

  /** Inserts one event in the caller's transaction and notifies; its id. */
  public long insertOne(Connection c) throws SQLException {
    return insert(c, 1).get(0);
  }

  /** Inserts one event in its own committed transaction; its id. */
  public long commitOne() throws SQLException {
    return commit(1).get(0);
  }

  /** Inserts {@code n} events in one committed transaction; their ids. */
  public List<Long> commit(int n) throws SQLException {
    try (Connection c = ds.getConnection()) {
      c.setAutoCommit(false);
      List<Long> ids = insert(c, n);
      c.commit();
      return ids;
    }
  }

  /**
   * Waits until no committed event waits behind a running transaction. Any transaction in the
   * cluster holds the feed back (D12), other tests' too, so a test that expects committed events in
   * a poll waits for this first.
   */
  public void awaitHorizon() {
    ReclaimEventFeed probe = ReclaimEventFeed.create(ds, schema);
    await().atMost(Duration.ofSeconds(60)).until(() -> probe.lag().heldBackEvents() == 0);
  }

  /** Sends the events channel's notification, delivered when the caller's transaction commits. */
  public void notify(Connection c) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT pg_notify(?, '')")) {
      ps.setString(1, channel);
      ps.execute();
    }
  }

  /** Gives the caller's transaction its id now, before it writes anything; returns it. */
  public static long takeXid(Connection c) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT pg_current_xact_id()::text");
        ResultSet rs = ps.executeQuery()) {
      rs.next();
      return Long.parseLong(rs.getString(1));
    }
  }

  /** The backend process id of the caller's session. */
  public static int pid(Connection c) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT pg_backend_pid()");
        ResultSet rs = ps.executeQuery()) {
      rs.next();
      return rs.getInt(1);
    }
  }

  /** The feed position of a committed event. */
  public FeedPosition position(long eventId) {
    long xid =
        db.queryLong(
            "SELECT writer_xid::text::bigint FROM " + t("job_events") + " WHERE event_id = ?",
            eventId);
    return new FeedPosition(xid, eventId);
  }

  /** The cursor just after a committed event. */
  public FeedCursor cursorAfter(long eventId) {
    return new FeedCursor(position(eventId));
  }

  /** Every committed reclaim event id in the feed's order (writer_xid, event_id). */
  public List<Long> feedOrder() {
    List<Long> ids = new ArrayList<>();
    for (Object id :
        db.queryColumn(
            "SELECT event_id FROM "
                + t("job_events")
                + " WHERE kind = 'reclaimed' ORDER BY writer_xid, event_id")) {
      ids.add(((Number) id).longValue());
    }
    return ids;
  }

  /** Stamps the retention watermark as S8 does, at a feed position. */
  public void setWatermark(FeedPosition mark) {
    db.update(
        "UPDATE "
            + t("maintenance_state")
            + " SET value = ?, writer_xid = ?::text::xid8, stamped_at = clock_timestamp()"
            + " WHERE key = 'reclaim_event_prune_watermark'",
        mark.eventId(),
        mark.writerXidText());
  }

  /**
   * Deletes one event and stamps the watermark at it, what S8 does when it prunes the row; the
   * watermark as a cursor.
   */
  public FeedCursor prune(long eventId) {
    FeedPosition p = position(eventId);
    db.update("DELETE FROM " + t("job_events") + " WHERE event_id = ?", eventId);
    setWatermark(p);
    return new FeedCursor(p);
  }

  /** How long ago the event was written, by the database clock, in milliseconds. */
  public long ageMillis(long eventId) {
    return db.queryLong(
        "SELECT (EXTRACT(EPOCH FROM clock_timestamp() - occurred_at) * 1000)::bigint FROM "
            + t("job_events")
            + " WHERE event_id = ?",
        eventId);
  }

  public static List<Long> ids(List<ReclaimEvent> events) {
    List<Long> ids = new ArrayList<>();
    for (ReclaimEvent e : events) {
      ids.add(e.eventId());
    }
    return ids;
  }
}
