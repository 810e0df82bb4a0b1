package io.taskq.testing;

import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;

/**
 * The Redis keys one test class owns: everything under its prefix.
 *
 * <p>Deletion walks the prefix with {@code SCAN} (never {@code KEYS}, which blocks the server) and
 * deletes page by page, so it is safe beside other test JVMs sharing the same Redis.
 */
final class RedisKeySpace {
  private static final int PAGE = 500;

  private RedisKeySpace() {}

  /** Deletes every key of {@code redisUrl} starting with {@code prefix}; returns how many. */
  static long deleteAll(String redisUrl, String prefix) {
    RedisURI uri = RedisURI.create(redisUrl);
    uri.setTimeout(Duration.ofSeconds(10));
    RedisClient client = RedisClient.create(uri);
    try (StatefulRedisConnection<String, String> c = client.connect()) {
      RedisCommands<String, String> redis = c.sync();
      ScanArgs match = ScanArgs.Builder.matches(globEscape(prefix) + "*").limit(PAGE);
      long deleted = 0;
      ScanCursor cursor = ScanCursor.INITIAL;
      do {
        KeyScanCursor<String> page = redis.scan(cursor, match);
        if (!page.getKeys().isEmpty()) {
          deleted += redis.unlink(page.getKeys().toArray(new String[0]));
        }
        cursor = page;
      } while (!cursor.isFinished());
      return deleted;
    } finally {
      client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
  }

  /** Escapes the characters {@code SCAN MATCH} treats as a pattern, so the prefix is literal. */
  static String globEscape(String literal) {
    return literal.replaceAll("([\\\\*?\\[\\]])", "\\\\$1");
  }
}
