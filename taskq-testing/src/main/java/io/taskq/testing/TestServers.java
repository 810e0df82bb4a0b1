package io.taskq.testing;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.jspecify.annotations.Nullable;

/**
 * Finds the PostgreSQL and Redis the tests run against, once per JVM (decision D4).
 *
 * <p>Order: {@code TASKQ_TEST_JDBC_URL} / {@code TASKQ_TEST_REDIS_URL} when set (environment, or
 * the system properties {@code taskq.test.jdbc.url} / {@code taskq.test.redis.url}); else the local
 * servers on 127.0.0.1; else nothing: tests fail loudly, saying which server is missing and how to
 * provide it. No test is ever skipped for want of a server.
 */
final class TestServers {
  static final String LOCAL_JDBC_URL = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";
  static final String LOCAL_REDIS_URL = "redis://127.0.0.1:6379";

  private static @Nullable TestServers instance;

  final String jdbcUrl;
  final String redisUrl;

  private TestServers(String jdbcUrl, String redisUrl) {
    this.jdbcUrl = jdbcUrl;
    this.redisUrl = redisUrl;
  }

  static synchronized TestServers get() {
    TestServers found = instance;
    if (found == null) {
      found = discover();
      instance = found;
    }
    return found;
  }

  private static TestServers discover() {
    List<String> missing = new ArrayList<>();
    String jdbc = setting("TASKQ_TEST_JDBC_URL", "taskq.test.jdbc.url");
    String jdbcUrl = jdbc != null ? jdbc : LOCAL_JDBC_URL;
    String pgProblem = probePostgres(jdbcUrl);
    if (pgProblem != null) {
      missing.add(
          "PostgreSQL at "
              + redact(jdbcUrl)
              + " ("
              + pgProblem
              + "): start it, or set TASKQ_TEST_JDBC_URL");
    }
    String redis = setting("TASKQ_TEST_REDIS_URL", "taskq.test.redis.url");
    String redisUrl = redis != null ? redis : LOCAL_REDIS_URL;
    String redisProblem = probeRedis(redisUrl);
    if (redisProblem != null) {
      missing.add(
          "Redis at "
              + redact(redisUrl)
              + " ("
              + redisProblem
              + "): start it, or set TASKQ_TEST_REDIS_URL");
    }
    if (!missing.isEmpty()) {
      throw new IllegalStateException(
          "TaskQ tests need a real PostgreSQL and Redis; missing: " + String.join("; ", missing));
    }
    return new TestServers(jdbcUrl, redisUrl);
  }

  private static @Nullable String setting(String env, String property) {
    String value = System.getProperty(property);
    if (value == null || value.isBlank()) {
      value = System.getenv(env);
    }
    return value == null || value.isBlank() ? null : value;
  }

  private static @Nullable String probePostgres(String url) {
    Properties props = new Properties();
    props.setProperty("connectTimeout", "3");
    props.setProperty("socketTimeout", "10");
    try (Connection c = DriverManager.getConnection(url, props)) {
      return c.isValid(3) ? null : "connection not valid";
    } catch (SQLException e) {
      return e.getMessage();
    }
  }

  private static @Nullable String probeRedis(String url) {
    RedisURI uri = RedisURI.create(url);
    uri.setTimeout(Duration.ofSeconds(3));
    RedisClient client = RedisClient.create(uri);
    try (StatefulRedisConnection<String, String> c = client.connect()) {
      return "PONG".equals(c.sync().ping()) ? null : "no PONG";
    } catch (RuntimeException e) {
      return e.getMessage();
    } finally {
      client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
  }

  /** Drops any password from a URL before it is shown. */
  static String redact(String url) {
    return url.replaceAll("(?i)(password=)[^&]*", "$1***")
        .replaceAll("://([^:/@]+):[^@/]*@", "://$1:***@");
  }
}
