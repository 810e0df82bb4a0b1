package io.taskq.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskq.SchemaName;
import io.taskq.TaskQConfig;
import io.taskq.limits.Decision;
import io.taskq.limits.TokenBucket;
import io.taskq.limits.UnavailablePolicy;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Building the connector from configuration, and keeping its password out of sight. */
@TaskQTest
class RedisConnectorTest {
  @Test
  void fromConfig_usesTheUrlTimeoutAndSchema(TestServices services) {
    TaskQConfig config =
        TaskQConfig.builder()
            .redisUrl(services.redisUri())
            .redisCommandTimeout(Duration.ofMillis(1500))
            .schemaName(services.schema())
            .build();

    try (RedisConnector connector = RedisConnector.create(config)) {
      assertThat(connector.schema()).isEqualTo(SchemaName.of(services.schema()));
      assertThat(connector.commandTimeout()).isEqualTo(Duration.ofMillis(1500));
      Decision decision =
          RedisRateLimiter.create(
                  connector,
                  TokenBucket.of(1, 1, Duration.ofHours(1)),
                  UnavailablePolicy.failOpen())
              .tryAcquire("from-config");
      assertThat(decision).isEqualTo(Decision.allowed(0));
      assertThat(connector.available()).isTrue();
    }
  }

  @Test
  void configWithoutRedis_isRefusedWithAnExplanation() {
    TaskQConfig config = TaskQConfig.builder().schemaName("no_redis").build();

    assertThatThrownBy(() -> RedisConnector.create(config))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("TASKQ_REDIS_URL is not set");
  }

  @Test
  void password_neverShowsInToStringOrErrors() {
    try (RedisConnector connector =
        RedisConnector.create(
            "redis://:hunter2@127.0.0.1:1/0", Duration.ofMillis(200), SchemaName.of("s"))) {
      assertThat(connector.toString()).doesNotContain("hunter2").contains("***", "127.0.0.1:1");
      RedisRateLimiter limiter =
          RedisRateLimiter.create(
              connector, TokenBucket.of(1, 1, Duration.ofHours(1)), UnavailablePolicy.failOpen());
      assertThat(limiter.tryAcquire("x").degraded()).isTrue();
    }
    assertThatThrownBy(
            () ->
                RedisConnector.create(
                    "rediz://:hunter2@127.0.0.1:6379", Duration.ofSeconds(1), SchemaName.of("s")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("invalid Redis URL")
        .hasMessageNotContaining("hunter2");
  }

  @Test
  void nonPositiveTimeout_isRefused() {
    assertThatThrownBy(
            () ->
                RedisConnector.create("redis://127.0.0.1:6379", Duration.ZERO, SchemaName.of("s")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Redis command timeout must be positive, was PT0S");
  }

  @Test
  @Tag("F6")
  @Tag("M7")
  void callerSuppliedNames_areCheckedAtTheBoundary(TestServices services) {
    try (RedisConnector connector = RawRedis.connector(services)) {
      RedisRateLimiter limiter =
          RedisRateLimiter.create(
              connector, TokenBucket.of(2, 1, Duration.ofHours(1)), UnavailablePolicy.failOpen());

      assertThatThrownBy(() -> limiter.tryAcquire("cust\u0000omer"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("token bucket name contains a NUL character (U+0000) at index 4");
      assertThatThrownBy(() -> limiter.tryAcquire(""))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("must not be empty");
      assertThatThrownBy(() -> limiter.tryAcquire("taskq:global:queue:default"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("must never reach PostgreSQL or Redis (M7)");
      assertThatThrownBy(() -> limiter.tryAcquire("api", 0))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("permits must be in 1..2");
    }
  }
}
