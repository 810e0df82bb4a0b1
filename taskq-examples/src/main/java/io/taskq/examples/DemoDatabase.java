package io.taskq.examples;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import java.util.Properties;
import org.jspecify.annotations.Nullable;

/**
 * Finds a PostgreSQL for the demo (decision D5): {@code TASKQ_DATABASE_URL} when set, else the
 * server on localhost, else an embedded PostgreSQL started for the demo's lifetime.
 */
final class DemoDatabase implements AutoCloseable {
  static final String LOCAL_URL = "jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres";

  final String jdbcUrl;
  final String description;
  private final @Nullable EmbeddedPostgres embedded;

  private DemoDatabase(String jdbcUrl, String description, @Nullable EmbeddedPostgres embedded) {
    this.jdbcUrl = jdbcUrl;
    this.description = description;
    this.embedded = embedded;
  }

  static DemoDatabase find(Map<String, String> env) throws IOException {
    String configured = env.get("TASKQ_DATABASE_URL");
    if (configured != null && !configured.isBlank()) {
      return new DemoDatabase(configured, "the database in TASKQ_DATABASE_URL", null);
    }
    if (answers(LOCAL_URL)) {
      return new DemoDatabase(LOCAL_URL, "the PostgreSQL on localhost:5432", null);
    }
    EmbeddedPostgres pg = EmbeddedPostgres.builder().start();
    String url = pg.getJdbcUrl("postgres", "postgres");
    return new DemoDatabase(
        url,
        "an embedded PostgreSQL on port "
            + pg.getPort()
            + " (no TASKQ_DATABASE_URL and none on localhost)",
        pg);
  }

  private static boolean answers(String url) {
    Properties props = new Properties();
    props.setProperty("connectTimeout", "2");
    try (Connection c = DriverManager.getConnection(url, props)) {
      return c.isValid(2);
    } catch (SQLException e) {
      return false;
    }
  }

  @Override
  public void close() throws IOException {
    if (embedded != null) {
      embedded.close();
    }
  }
}
