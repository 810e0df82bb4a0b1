package io.taskq.benchmarks;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.taskq.SchemaName;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The benchmark's database: one pool and one schema of its own, recreated and migrated at start and
 * emptied between measurements so every run starts from the same tables.
 */
final class BenchDatabase implements AutoCloseable {
  static final String LOCAL_URL = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";

  final SchemaName schema;
  final HikariDataSource pool;
  private final String url;

  private BenchDatabase(String url, SchemaName schema, int poolSize) {
    this.url = url;
    this.schema = schema;
    this.pool = pool(url, poolSize, "taskq-bench");
  }

  /** Opens a pool on {@code TASKQ_DATABASE_URL} (else the local PostgreSQL) and migrates. */
  static BenchDatabase open(SchemaName schema, int poolSize) throws SQLException {
    String url = System.getenv().getOrDefault("TASKQ_DATABASE_URL", LOCAL_URL);
    BenchDatabase db = new BenchDatabase(url, schema, poolSize);
    db.execute("DROP SCHEMA IF EXISTS " + schema.quoted() + " CASCADE");
    Roots.migrate(db.pool, schema);
    return db;
  }

  /** A second pool on the same database: "another connection" for the pickup measurement. */
  HikariDataSource otherPool(int size) {
    return pool(url, size, "taskq-bench-other");
  }

  private static HikariDataSource pool(String url, int size, String name) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setMaximumPoolSize(size);
    config.setMinimumIdle(size);
    config.setPoolName(name);
    return new HikariDataSource(config);
  }

  /** The schema's table, quoted. */
  String table(String name) {
    return schema.quoted() + "." + name;
  }

  /** Empties the job tables so the next measurement starts clean. */
  void emptyJobs() throws SQLException {
    execute(
        "TRUNCATE "
            + table("jobs")
            + ", "
            + table("job_attempts")
            + ", "
            + table("job_events")
            + ", "
            + table("workers"));
  }

  /**
   * Refreshes the planner's statistics of the job tables, as autovacuum does on a live queue.
   * Without them a freshly filled table looks empty to the planner, and the claim may sort every
   * due job instead of walking its index for the first few (see docs/benchmarks.md).
   */
  void analyze(String... tables) throws SQLException {
    for (String name : tables) {
      execute("ANALYZE " + table(name));
    }
  }

  void execute(String sql) throws SQLException {
    try (Connection c = pool.getConnection();
        Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  /** One {@code bigint} from a query whose {@code ?} parameters are {@code args}. */
  long queryLong(String sql, Object... args) throws SQLException {
    try (Connection c = pool.getConnection();
        PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        ps.setObject(i + 1, args[i]);
      }
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  /** Jobs of this schema in {@code status}. */
  long countJobs(String status) throws SQLException {
    return queryLong("SELECT count(*) FROM " + table("jobs") + " WHERE status = ?", status);
  }

  ServerCounters counters() throws SQLException {
    try (Connection c = pool.getConnection()) {
      return ServerCounters.read(c);
    }
  }

  @Override
  public void close() {
    pool.close();
  }
}
