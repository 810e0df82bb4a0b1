package io.taskq.examples;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.jspecify.annotations.Nullable;

/**
 * Finds a PostgreSQL for the demo (decision D5): {@code TASKQ_DATABASE_URL} when set, else the
 * server on localhost, else an embedded PostgreSQL started for the demo's lifetime.
 *
 * <p>The demo uses the database its URL names. When it makes the URL itself (localhost or embedded)
 * that is {@value #DATABASE}, created when the server lacks it; it never works in {@code postgres}.
 * Every choice is printed, so the user knows where the demo's schema went.
 */
final class DemoDatabase implements AutoCloseable {
  static final String DATABASE = "test";
  static final String LOCAL_SERVER = "127.0.0.1:5432";
  private static final String UNDEFINED_DATABASE = "3D000";

  final String jdbcUrl;
  final String description;
  private final @Nullable EmbeddedPostgres embedded;

  private DemoDatabase(String jdbcUrl, String description, @Nullable EmbeddedPostgres embedded) {
    this.jdbcUrl = jdbcUrl;
    this.description = description;
    this.embedded = embedded;
  }

  static DemoDatabase find(Map<String, String> env, PrintStream out)
      throws IOException, SQLException {
    String configured = env.get("TASKQ_DATABASE_URL");
    if (configured != null && !configured.isBlank()) {
      return new DemoDatabase(configured, where(configured) + ", from TASKQ_DATABASE_URL", null);
    }
    String local = url(LOCAL_SERVER, DATABASE);
    Probe probe = probe(local);
    if (probe == Probe.NO_DATABASE) {
      createDatabase(LOCAL_SERVER, out);
      probe = Probe.ANSWERS;
    }
    if (probe == Probe.ANSWERS) {
      return new DemoDatabase(local, where(local) + ", the PostgreSQL on localhost", null);
    }
    return embedded(out);
  }

  private static DemoDatabase embedded(PrintStream out) throws IOException, SQLException {
    out.println(
        "No TASKQ_DATABASE_URL and nothing answers on "
            + LOCAL_SERVER
            + ": starting an embedded PostgreSQL (it unpacks a server binary; about 20 s the first"
            + " time)...");
    long started = System.nanoTime();
    EmbeddedPostgres pg = EmbeddedPostgres.builder().start();
    out.printf(
        Locale.ROOT,
        "Embedded PostgreSQL ready on port %d after %.1f s%n",
        pg.getPort(),
        (System.nanoTime() - started) / 1e9);
    String server = "127.0.0.1:" + pg.getPort();
    createDatabase(server, out);
    String url = url(server, DATABASE);
    return new DemoDatabase(url, where(url) + ", embedded (gone when the demo ends)", pg);
  }

  static String url(String server, String database) {
    return "jdbc:postgresql://" + server + "/" + database + "?user=postgres";
  }

  /**
   * {@code database test on 127.0.0.1:5432}: the database and server of a JDBC URL, without its
   * user, password or parameters, so nothing secret is ever printed.
   */
  static String where(String jdbcUrl) {
    try {
      URI uri = URI.create(jdbcUrl.replaceFirst("^jdbc:", ""));
      String path = uri.getPath() == null ? "" : uri.getPath().replaceFirst("^/", "");
      String server = uri.getPort() < 0 ? uri.getHost() : uri.getHost() + ":" + uri.getPort();
      return "database " + (path.isEmpty() ? "(the user's default)" : path) + " on " + server;
    } catch (IllegalArgumentException e) {
      return "the database of TASKQ_DATABASE_URL";
    }
  }

  private enum Probe {
    ANSWERS,
    NO_DATABASE,
    NO_SERVER
  }

  private static Probe probe(String url) {
    Properties props = new Properties();
    props.setProperty("connectTimeout", "2");
    try (Connection c = DriverManager.getConnection(url, props)) {
      return c.isValid(2) ? Probe.ANSWERS : Probe.NO_SERVER;
    } catch (SQLException e) {
      return UNDEFINED_DATABASE.equals(e.getSQLState()) ? Probe.NO_DATABASE : Probe.NO_SERVER;
    }
  }

  /** Creates {@value #DATABASE} through the server's {@code postgres} maintenance database. */
  private static void createDatabase(String server, PrintStream out) throws SQLException {
    try (Connection c = DriverManager.getConnection(url(server, "postgres"));
        Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + DATABASE);
      out.println("Created database " + DATABASE + " on " + server + " for the demo");
    }
  }

  @Override
  public void close() throws IOException {
    if (embedded != null) {
      embedded.close();
    }
  }
}
