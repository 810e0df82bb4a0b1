package io.taskq.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@TaskQTest
@Tag("Q3")
class RedisKeySpaceTest {
  private static RedisClient client;
  private static StatefulRedisConnection<String, String> connection;

  @BeforeAll
  static void connect(TestServices services) {
    client = RedisClient.create(services.redisUri());
    connection = client.connect();
  }

  @AfterAll
  static void disconnect() {
    connection.close();
    client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
  }

  @Test
  void deleteAll_removesEveryKeyUnderThePrefixAcrossScanPages_andNothingBeside(
      TestServices services) {
    RedisCommands<String, String> redis = connection.sync();
    String prefix = services.redisPrefix() + "many:";
    for (int i = 0; i < 1_200; i++) {
      redis.set(prefix + i, "v");
    }
    redis.set(services.redisPrefix() + "many", "sibling without the colon");
    redis.set(services.redisPrefix() + "manyx:1", "sibling sharing the start");

    long deleted = RedisKeySpace.deleteAll(services.redisUri(), prefix);

    assertThat(deleted).isEqualTo(1_200);
    assertThat(redis.keys(RedisKeySpace.globEscape(prefix) + "*")).isEmpty();
    assertThat(redis.exists(services.redisPrefix() + "many", services.redisPrefix() + "manyx:1"))
        .isEqualTo(2);
  }

  @Test
  void patternCharactersInThePrefix_areTakenLiterally(TestServices services) {
    RedisCommands<String, String> redis = connection.sync();
    String prefix = services.redisPrefix() + "we?rd*[ab]\\:";
    redis.set(prefix + "1", "v");
    String lookalike = services.redisPrefix() + "weXrdYYa\\:1";
    redis.set(lookalike, "would match the unescaped pattern");

    assertThat(RedisKeySpace.deleteAll(services.redisUri(), prefix)).isEqualTo(1);
    assertThat(redis.exists(prefix + "1")).isZero();
    assertThat(redis.exists(lookalike)).isEqualTo(1);
  }

  @Test
  void globEscape_escapesEveryPatternCharacter() {
    assertThat(RedisKeySpace.globEscape("a*b?c[d]e\\f")).isEqualTo("a\\*b\\?c\\[d\\]e\\\\f");
  }
}
