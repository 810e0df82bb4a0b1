package io.taskq.postgres.internal.feed;

import io.taskq.postgres.internal.FaultSeam;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The watch's own session LISTENing on the schema's events channel (M2, D11).
 *
 * <p>A notification only says "look now"; its payload is ignored and the watch polls anyway, so a
 * lost notification costs latency, never an event. The session is tagged with an {@code
 * application_name}, so operators (and tests) can find it in {@code pg_stat_activity}. It waits in
 * {@code getNotifications(timeout)}, which only reads the socket, in slices short enough to notice
 * a stop request, and checks the session is alive every {@link #PROBE_INTERVAL} while idle, so a
 * silently dead TCP connection is found and replaced. Not thread-safe: the watch thread owns it.
 */
final class EventsListener implements AutoCloseable {
  static final Duration PROBE_INTERVAL = Duration.ofSeconds(30);
  private static final Logger LOG = LoggerFactory.getLogger(EventsListener.class);
  private static final int SLICE_MILLIS = 100;

  private final DataSource source;
  private final String quotedChannel;
  private final String applicationName;
  private final FaultSeam seam;
  private @Nullable Connection connection;
  private long nextProbe;

  EventsListener(DataSource source, String quotedChannel, String applicationName, FaultSeam seam) {
    this.source = source;
    this.quotedChannel = quotedChannel;
    this.applicationName = applicationName;
    this.seam = seam;
  }

  boolean isOpen() {
    return connection != null;
  }

  /** Opens the session and LISTENs; on failure nothing stays open. */
  void open() throws SQLException {
    seam.check();
    Connection c = source.getConnection();
    try {
      c.setAutoCommit(true);
      try (PreparedStatement ps =
          c.prepareStatement("SELECT set_config('application_name', ?, false)")) {
        ps.setString(1, applicationName);
        ps.execute();
      }
      try (Statement s = c.createStatement()) {
        s.execute("LISTEN " + quotedChannel);
      }
    } catch (SQLException | RuntimeException e) {
      closeQuietly(c);
      throw e;
    }
    connection = c;
    nextProbe = System.nanoTime() + PROBE_INTERVAL.toNanos();
  }

  /**
   * Waits up to {@code timeout} for a notification on the channel.
   *
   * @return whether one (or several: they are drained together) arrived
   * @throws SQLException when the session broke; it is closed by then
   */
  boolean await(Duration timeout, BooleanSupplier stopped) throws SQLException {
    Connection c = connection;
    if (c == null) {
      throw new IllegalStateException("the listen session is not open");
    }
    try {
      return awaitOn(c.unwrap(PGConnection.class), c, timeout, stopped);
    } catch (SQLException | RuntimeException e) {
      close();
      throw e;
    }
  }

  private boolean awaitOn(PGConnection pg, Connection c, Duration timeout, BooleanSupplier stopped)
      throws SQLException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!stopped.getAsBoolean()) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      int slice = (int) Math.max(1, Math.min(SLICE_MILLIS, left / 1_000_000));
      PGNotification[] received = pg.getNotifications(slice);
      if (received != null && received.length > 0) {
        return true;
      }
      probeWhenDue(c);
    }
    return false;
  }

  private void probeWhenDue(Connection c) throws SQLException {
    if (System.nanoTime() - nextProbe < 0) {
      return;
    }
    if (!c.isValid(5)) {
      throw new SQLException("the listen session is no longer valid", "08003");
    }
    nextProbe = System.nanoTime() + PROBE_INTERVAL.toNanos();
  }

  /** Stops listening and closes the session; a borrowed connection goes back clean to its pool. */
  @Override
  public void close() {
    Connection c = connection;
    connection = null;
    if (c == null) {
      return;
    }
    try (Statement s = c.createStatement()) {
      s.execute("UNLISTEN *");
      s.execute("RESET application_name");
    } catch (SQLException e) {
      LOG.debug("cannot reset the closing listen session: {}", e.toString());
    }
    closeQuietly(c);
  }

  private static void closeQuietly(Connection c) {
    try {
      c.close();
    } catch (SQLException e) {
      LOG.debug("closing the listen session failed: {}", e.toString());
    }
  }
}
