package io.taskq.postgres.testing;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/** A LISTEN connection for tests: collects notifications, waiting on the driver, never sleeping. */
public final class Notifications implements AutoCloseable {
  private final Connection connection;
  private final PGConnection pg;

  private Notifications(Connection connection) throws SQLException {
    this.connection = connection;
    this.pg = connection.unwrap(PGConnection.class);
  }

  /** Listens on {@code channels} (quoted as identifiers). */
  public static Notifications listen(DataSource ds, String... channels) throws SQLException {
    Notifications n = new Notifications(ds.getConnection());
    try (Statement s = n.connection.createStatement()) {
      for (String channel : channels) {
        s.execute("LISTEN \"" + channel + "\"");
      }
    }
    return n;
  }

  /** Every notification that arrives within {@code millis}, returned as "channel:payload". */
  public List<String> receive(int millis) throws SQLException {
    List<String> out = new ArrayList<>();
    PGNotification[] batch = pg.getNotifications(millis);
    if (batch != null) {
      for (PGNotification n : batch) {
        out.add(n.getName() + ":" + n.getParameter());
      }
    }
    return out;
  }

  /**
   * Collects notifications until one equals {@code last} (or 10 s pass): whatever arrived before it
   * was committed earlier, so absence of something before {@code last} proves it was never sent.
   */
  public List<String> receiveUntil(String last) throws SQLException {
    List<String> out = new ArrayList<>();
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (!out.contains(last) && System.nanoTime() < deadline) {
      out.addAll(receive(500));
    }
    return out;
  }

  /**
   * Stops listening before the connection goes back to the pool: a pooled connection that still
   * listened would collect every later wake and hand them to the next test that borrows it.
   */
  @Override
  public void close() throws SQLException {
    try (Statement s = connection.createStatement()) {
      s.execute("UNLISTEN *");
      pg.getNotifications();
    } finally {
      connection.close();
    }
  }
}
