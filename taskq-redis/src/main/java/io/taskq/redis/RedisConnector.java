package io.taskq.redis;

import io.taskq.SchemaName;
import io.taskq.TaskQConfig;
import io.taskq.core.internal.RedisKeys;
import io.taskq.redis.internal.RedisLink;
import java.time.Duration;
import java.util.Objects;

/**
 * The Redis a TaskQ deployment uses, for one schema: where it is ({@code TASKQ_REDIS_URL}), the
 * deadline of every command ({@code TASKQ_REDIS_COMMAND_TIMEOUT}), and the schema its keys carry
 * ({@code TASKQ_SCHEMA_NAME}).
 *
 * <p>Cheap to create: it opens no connection until first used, so a process starts while Redis is
 * away. One connector (one multiplexed connection) serves every limiter and progress store of the
 * process; close it on shutdown. The URL may carry a password, which is never shown: {@link
 * #toString()} and every log line and error use the masked form.
 */
public final class RedisConnector implements AutoCloseable {
  private final RedisLink link;
  private final RedisKeys keys;

  private RedisConnector(RedisLink link, SchemaName schema) {
    this.link = link;
    this.keys = RedisKeys.of(schema);
  }

  /**
   * A connector to {@link TaskQConfig#redisUrl()} for {@link TaskQConfig#schemaName()}.
   *
   * @param config the configuration whose Redis URL, command timeout and schema name are used
   * @return a new connector
   * @throws IllegalArgumentException when the configuration has no Redis URL
   */
  public static RedisConnector create(TaskQConfig config) {
    String url =
        config
            .redisUrl()
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "TASKQ_REDIS_URL is not set: this deployment runs without Redis, so use"
                            + " the PostgreSQL rate limits and progress instead"));
    return create(url, config.redisCommandTimeout(), config.schemaName());
  }

  /**
   * A connector to {@code url} for {@code schema}, each command bounded by {@code commandTimeout}.
   *
   * @param url the Redis URL ({@code redis://} or {@code rediss://})
   * @param commandTimeout the deadline of each command; positive
   * @param schema the schema whose name every key carries
   * @return a new connector
   * @throws IllegalArgumentException when the URL is not a Redis URL (shown masked) or the timeout
   *     is not positive
   */
  public static RedisConnector create(String url, Duration commandTimeout, SchemaName schema) {
    Objects.requireNonNull(schema, "schema");
    return new RedisConnector(RedisLink.open(url, commandTimeout), schema);
  }

  /** {@return the schema every key of this connector carries} */
  public SchemaName schema() {
    return keys.schema();
  }

  /** {@return the deadline of every Redis command} */
  public Duration commandTimeout() {
    return link.commandTimeout();
  }

  /**
   * False from a call that found Redis unavailable until the next call that succeeds.
   *
   * @return {@code false} while the last call found Redis unavailable, else {@code true}
   */
  public boolean available() {
    return link.available();
  }

  RedisLink link() {
    return link;
  }

  RedisKeys keys() {
    return keys;
  }

  /** Closes the connection and the client's threads. */
  @Override
  public void close() {
    link.close();
  }

  @Override
  public String toString() {
    return "RedisConnector{" + link.maskedUrl() + ", schema=" + keys.schema().value() + "}";
  }
}
