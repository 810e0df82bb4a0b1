package io.taskq.testing;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives each test class its own schema, pool and Redis prefix; see {@link TaskQTest}.
 *
 * <p>The resources live in the class-level extension store and are closed (pool shut, schema
 * dropped, Redis keys deleted) when the class finishes.
 */
public final class TaskQTestExtension implements BeforeAllCallback, ParameterResolver {
  /** The zone every test session runs in: deliberately not UTC, with a half-hour offset. */
  public static final String SESSION_TIME_ZONE =
      System.getProperty("taskq.test.timezone", "America/St_Johns");

  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(TaskQTestExtension.class);

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    classResources(context);
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext extension) {
    return parameter.getParameter().getType() == TestServices.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext extension) {
    try {
      return classResources(extension).services;
    } catch (SQLException e) {
      throw new ParameterResolutionException("could not create the test schema", e);
    }
  }

  private static ClassResources classResources(ExtensionContext context) throws SQLException {
    ExtensionContext classContext = context;
    while (classContext.getParent().isPresent()
        && classContext.getParent().get().getTestClass().isPresent()) {
      classContext = classContext.getParent().get();
    }
    ExtensionContext.Store store = classContext.getStore(NAMESPACE);
    ClassResources existing = store.get("resources", ClassResources.class);
    if (existing != null) {
      return existing;
    }
    String className = classContext.getRequiredTestClass().getSimpleName();
    ClassResources created = ClassResources.open(TestServers.get(), schemaFor(className));
    store.put("resources", created);
    return created;
  }

  static String schemaFor(String className) {
    String base = className.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
    if (base.length() > 40) {
      base = base.substring(0, 40);
    }
    return "t_" + base + "_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 24);
  }

  /** One class's schema, pool and Redis prefix; closing drops them all. */
  static final class ClassResources implements AutoCloseable {
    final TestServices services;
    private final HikariDataSource pool;

    private ClassResources(TestServices services, HikariDataSource pool) {
      this.services = services;
      this.pool = pool;
    }

    static ClassResources open(TestServers servers, String schema) throws SQLException {
      HikariConfig config = new HikariConfig();
      config.setJdbcUrl(servers.jdbcUrl);
      config.setPoolName("taskq-test-" + schema);
      config.setMaximumPoolSize(12);
      config.setMinimumIdle(0);
      config.addDataSourceProperty("options", "-c TimeZone=" + SESSION_TIME_ZONE);
      config.addDataSourceProperty("connectTimeout", "5");
      config.addDataSourceProperty("socketTimeout", "60");
      config.addDataSourceProperty("tcpKeepAlive", "true");
      HikariDataSource pool = new HikariDataSource(config);
      try (Connection c = pool.getConnection();
          Statement s = c.createStatement()) {
        s.execute("CREATE SCHEMA \"" + schema + "\"");
      } catch (SQLException | RuntimeException e) {
        pool.close();
        throw e;
      }
      String prefix = "taskq:" + schema + ":";
      return new ClassResources(
          new TestServices(schema, pool, servers.jdbcUrl, servers.redisUrl, prefix), pool);
    }

    @Override
    public void close() throws SQLException {
      try (Connection c = pool.getConnection();
          Statement s = c.createStatement()) {
        s.execute("DROP SCHEMA IF EXISTS \"" + services.schema() + "\" CASCADE");
      } finally {
        pool.close();
        deleteRedisKeys(services.redisUri(), services.redisPrefix());
      }
    }

    private static void deleteRedisKeys(String uri, String prefix) {
      RedisClient client = RedisClient.create(uri);
      try (StatefulRedisConnection<String, String> c = client.connect()) {
        RedisCommands<String, String> redis = c.sync();
        ScanArgs match = ScanArgs.Builder.matches(prefix + "*").limit(500);
        ScanCursor cursor = ScanCursor.INITIAL;
        do {
          KeyScanCursor<String> page = redis.scan(cursor, match);
          if (!page.getKeys().isEmpty()) {
            redis.del(page.getKeys().toArray(new String[0]));
          }
          cursor = page;
        } while (!cursor.isFinished());
      } finally {
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
      }
    }
  }
}
