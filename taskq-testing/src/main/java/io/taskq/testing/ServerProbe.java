package io.taskq.testing;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Properties;
import org.jspecify.annotations.Nullable;

/**
 * Asks a server whether it answers, within a few seconds, and says why not when it does not.
 *
 * <p>Each method returns {@code null} when the server answered and a one-line reason otherwise; it
 * never throws and never hangs on a server that accepts the connection but does not reply.
 */
final class ServerProbe {
  // Generous: a loaded CI machine can take seconds to fork a backend, and the verdict is cached
  // for the whole JVM, so a too-short probe would fail every test class of a module.
  private static final int TIMEOUT_SECONDS = 10;

  private ServerProbe() {}

  /** Why {@code jdbcUrl} gives no usable PostgreSQL connection, or {@code null} when it does. */
  static @Nullable String postgresProblem(String jdbcUrl) {
    Properties props = new Properties();
    props.setProperty("connectTimeout", String.valueOf(TIMEOUT_SECONDS));
    props.setProperty("loginTimeout", String.valueOf(TIMEOUT_SECONDS));
    props.setProperty("socketTimeout", String.valueOf(TIMEOUT_SECONDS * 3));
    try (Connection c = DriverManager.getConnection(jdbcUrl, props)) {
      return c.isValid(TIMEOUT_SECONDS) ? null : "the connection did not validate";
    } catch (SQLException | RuntimeException e) {
      return oneLine(e);
    }
  }

  /** Why {@code redisUrl} gives no Redis that answers PING, or {@code null} when it does. */
  static @Nullable String redisProblem(String redisUrl) {
    RedisClient client;
    try {
      RedisURI uri = RedisURI.create(redisUrl);
      uri.setTimeout(Duration.ofSeconds(TIMEOUT_SECONDS));
      client = RedisClient.create(uri);
    } catch (RuntimeException e) {
      return oneLine(e);
    }
    try (StatefulRedisConnection<String, String> c = client.connect()) {
      String pong = c.sync().ping();
      return "PONG".equals(pong) ? null : "PING answered '" + pong + "'";
    } catch (RuntimeException e) {
      return oneLine(e);
    } finally {
      client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
  }

  /** The exception's message and its root cause's, on one line. */
  static String oneLine(Throwable e) {
    Throwable root = e;
    Throwable cause = e.getCause();
    while (cause != null && cause != root) {
      root = cause;
      cause = root.getCause();
    }
    String message = String.valueOf(e.getMessage());
    String rootMessage = root.getMessage();
    if (root != e && rootMessage != null && !message.contains(rootMessage)) {
      message += ": " + rootMessage;
    }
    return message.replaceAll("\\s+", " ").trim();
  }
}
