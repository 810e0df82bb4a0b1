package io.taskq.testing;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.taskq.SchemaName;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * One test class's schema, pool and Redis prefix; closing gives them all back.
 *
 * <p>Closing order matters: the pool is closed first (Hikari aborts connections a test left checked
 * out, releasing their locks), then the schema is dropped on a connection of its own, under a lock
 * timeout so a connection the test opened itself and left in a transaction makes the drop fail
 * loudly instead of hanging the build; the Redis keys go last. Each step runs even when an earlier
 * one failed, and the first failure is thrown with the later ones suppressed.
 */
final class ClassResources implements AutoCloseable {
  /** How long the schema drop waits for locks held by connections the test forgot to close. */
  static final String DROP_LOCK_TIMEOUT = "10s";

  /** The schema prefix when {@code @TaskQTest} names none. */
  static final String DEFAULT_PREFIX = "t";

  private static final long BORROW_TIMEOUT_MS = 10_000;

  final TestServices services;
  private final HikariDataSource pool;

  private ClassResources(TestServices services, HikariDataSource pool) {
    this.services = services;
    this.pool = pool;
  }

  /**
   * Creates a fresh schema named after {@code testClass} and a pool of at most {@code poolSize}.
   */
  static ClassResources open(TestServers servers, String testClass, int poolSize)
      throws SQLException {
    String redisUrl = servers.redisUrl();
    return open(servers.jdbcUrl(), () -> redisUrl, testClass, DEFAULT_PREFIX, poolSize);
  }

  /**
   * Creates a fresh schema named {@code prefix_<testClass>_<random>} on {@code jdbcUrl} and a pool
   * of at most {@code poolSize}; {@code redis} is asked for the Redis URI only when a test uses it.
   */
  static ClassResources open(
      String jdbcUrl, Supplier<String> redis, String testClass, String prefix, int poolSize)
      throws SQLException {
    if (poolSize < 1 || poolSize > 50) {
      throw new IllegalArgumentException(
          "@TaskQTest(poolSize = " + poolSize + ") on " + testClass + ": must be within 1..50");
    }
    checkPrefix(prefix, testClass);
    SchemaName schema = SchemaName.of(schemaFor(prefix, testClass));
    HikariDataSource pool = new HikariDataSource(poolConfig(jdbcUrl, schema, poolSize));
    try (Connection c = pool.getConnection();
        Statement s = c.createStatement()) {
      s.execute("CREATE SCHEMA " + schema.quoted());
    } catch (SQLException | RuntimeException e) {
      pool.close();
      throw e;
    }
    String keyPrefix = "taskq:" + schema.value() + ":";
    TestServices services = new TestServices(schema.value(), pool, jdbcUrl, redis, keyPrefix);
    return new ClassResources(services, pool);
  }

  /**
   * Checks a {@code @TaskQTest(schemaPrefix)}.
   *
   * @throws IllegalArgumentException naming the rule it breaks
   */
  static void checkPrefix(String prefix, String testClass) {
    if (!prefix.matches("[a-z][a-z0-9_]{0,15}")) {
      throw new IllegalArgumentException(
          "@TaskQTest(schemaPrefix = \""
              + prefix
              + "\") on "
              + testClass
              + ": must be 1 to 16 lower-case letters, digits or underscores, starting with a"
              + " letter");
    }
  }

  /**
   * A schema name no other class (nor an earlier run of this one) uses: {@code t_}, the class name
   * folded to lower-case letters and digits (at most 40), and 40 random bits in hex.
   */
  static String schemaFor(String className) {
    return schemaFor(DEFAULT_PREFIX, className);
  }

  /** {@link #schemaFor(String)} with {@code prefix} in place of {@code t}. */
  static String schemaFor(String prefix, String className) {
    String base = className.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
    if (base.length() > 40) {
      base = base.substring(0, 40);
    }
    long random = ThreadLocalRandom.current().nextLong() >>> 24;
    return prefix + "_" + base + "_" + String.format(Locale.ROOT, "%010x", random);
  }

  private static HikariConfig poolConfig(String jdbcUrl, SchemaName schema, int poolSize) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(jdbcUrl);
    config.setPoolName("taskq-test-" + schema.value());
    config.setMaximumPoolSize(poolSize);
    config.setMinimumIdle(0);
    config.setConnectionTimeout(BORROW_TIMEOUT_MS);
    // The session zone is deliberately not UTC, so code that leans on it shows up in tests.
    config.addDataSourceProperty("options", "-c TimeZone=" + TaskQTestExtension.SESSION_TIME_ZONE);
    config.addDataSourceProperty("ApplicationName", "taskq-test:" + schema.value());
    config.addDataSourceProperty("connectTimeout", "5");
    config.addDataSourceProperty("socketTimeout", "120");
    config.addDataSourceProperty("tcpKeepAlive", "true");
    return config;
  }

  @Override
  public void close() {
    List<Exception> failures = new ArrayList<>();
    try {
      pool.close();
    } catch (RuntimeException e) {
      failures.add(e);
    }
    try {
      dropSchema();
    } catch (SQLException | RuntimeException e) {
      failures.add(e);
    }
    String redisUri = services.redisUriIfUsed();
    try {
      if (redisUri != null) {
        RedisKeySpace.deleteAll(redisUri, services.redisPrefix());
      }
    } catch (RuntimeException e) {
      failures.add(e);
    }
    if (!failures.isEmpty()) {
      IllegalStateException failure =
          new IllegalStateException(
              "cleaning up test schema "
                  + services.schema()
                  + " failed: "
                  + ServerProbe.oneLine(failures.get(0)),
              failures.get(0));
      failures.subList(1, failures.size()).forEach(failure::addSuppressed);
      throw failure;
    }
  }

  private void dropSchema() throws SQLException {
    SchemaName schema = SchemaName.of(services.schema());
    Properties props = new Properties();
    props.setProperty("connectTimeout", "5");
    props.setProperty("socketTimeout", "60");
    try (Connection c = DriverManager.getConnection(services.jdbcUrl(), props)) {
      c.setAutoCommit(false);
      try (Statement s = c.createStatement()) {
        // Transaction-local (SET LOCAL semantics): never a session-level SET.
        s.execute("SELECT set_config('lock_timeout', '" + DROP_LOCK_TIMEOUT + "', true)");
        s.execute("DROP SCHEMA IF EXISTS " + schema.quoted() + " CASCADE");
        c.commit();
      } catch (SQLException e) {
        c.rollback();
        if ("55P03".equals(e.getSQLState())) {
          throw new SQLException(
              "could not drop test schema "
                  + schema.quoted()
                  + " within "
                  + DROP_LOCK_TIMEOUT
                  + ": a connection the test opened itself still holds locks on its objects"
                  + " (close every connection and transaction the test started)",
              e.getSQLState(),
              e);
        }
        throw e;
      }
    }
  }
}
