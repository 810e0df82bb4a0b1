package io.taskq.testing;

import io.lettuce.core.RedisURI;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The two servers the tests need ({@link TestServers} finds them), and what differs between them.
 */
enum TestServer {
  POSTGRES("PostgreSQL", TestServers.JDBC_VARIABLE),
  REDIS("Redis", TestServers.REDIS_VARIABLE);

  final String label;
  final String variable;

  TestServer(String label, String variable) {
    this.label = label;
    this.variable = variable;
  }

  @Nullable String syntaxProblem(String url) {
    if (this == POSTGRES) {
      return url.toLowerCase(Locale.ROOT).startsWith("jdbc:postgresql:")
          ? null
          : "not a PostgreSQL JDBC URL (it must start with jdbc:postgresql://)";
    }
    String lower = url.toLowerCase(Locale.ROOT);
    if (!lower.startsWith("redis://") && !lower.startsWith("rediss://")) {
      return "not a Redis URI like redis://host:6379 (it must start with redis:// or rediss://)";
    }
    try {
      RedisURI uri = RedisURI.create(url);
      return uri.getHost() == null || uri.getHost().isBlank()
          ? "not a Redis URI like redis://host:6379 (no host)"
          : null;
    } catch (RuntimeException e) {
      return "not a Redis URI like redis://host:6379 (" + ServerProbe.oneLine(e) + ")";
    }
  }

  @Nullable String probe(String url) {
    return this == POSTGRES ? ServerProbe.postgresProblem(url) : ServerProbe.redisProblem(url);
  }

  String start(ContainerFallback containers) {
    return this == POSTGRES ? containers.startPostgres() : containers.startRedis();
  }
}
