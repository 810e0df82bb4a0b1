package io.taskq.redis;

import io.lettuce.core.RedisClient;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanIterator;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.taskq.SchemaName;
import io.taskq.testing.TestServices;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A plain Lettuce connection to the test Redis, for looking at keys from outside the code under
 * test (and for the odd admin command); plus how tests build their connector.
 */
final class RawRedis implements AutoCloseable {
  private final RedisClient client;
  private final StatefulRedisConnection<String, String> connection;

  private RawRedis(String uri) {
    client = RedisClient.create(uri);
    connection = client.connect();
  }

  static RawRedis to(TestServices services) {
    return new RawRedis(services.redisUri());
  }

  /** A connection to the Redis at {@code uri} (a private server, R8). */
  static RawRedis to(String uri) {
    return new RawRedis(uri);
  }

  /** A connector on the test Redis for the class's schema, commands bounded by 2 s. */
  static RedisConnector connector(TestServices services) {
    return connector(services, services.schema());
  }

  /** A connector on the test Redis for {@code schema}. */
  static RedisConnector connector(TestServices services, String schema) {
    return RedisConnector.create(services.redisUri(), Duration.ofSeconds(2), SchemaName.of(schema));
  }

  RedisCommands<String, String> sync() {
    return connection.sync();
  }

  /** Every key starting with {@code prefix}, sorted. */
  List<String> keysStartingWith(String prefix) {
    List<String> keys = new ArrayList<>();
    ScanIterator.scan(sync(), ScanArgs.Builder.matches(prefix + "*").limit(500))
        .forEachRemaining(keys::add);
    Collections.sort(keys);
    return keys;
  }

  /** Deletes every key starting with {@code prefix}. */
  void deleteKeysStartingWith(String prefix) {
    keysStartingWith(prefix).forEach(sync()::del);
  }

  @Override
  public void close() {
    connection.close();
    client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
  }
}
