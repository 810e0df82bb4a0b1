package io.taskq.redis.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisException;
import io.taskq.testing.servers.PrivateRedis;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * D14 / R7: after a long outage the link is used again soon after Redis answers, not after a
 * reconnect back-off grown through the outage. Lettuce's own default doubles its delay up to 30 s,
 * so a Redis that was away for 20 s could wait another 15 s before anything reached it; the link
 * bounds the back-off by {@link RedisLink#MAX_RECONNECT_DELAY}. Killing and restarting a server
 * needs one of the test's own (R8).
 */
@Tag("M5")
@Tag("R7")
class RedisLinkReconnectTest {
  private static final Duration OUTAGE = Duration.ofSeconds(20);

  @Test
  void afterALongOutage_theLinkIsUsedAgainWithinTheBoundedReconnectDelay() throws Exception {
    try (PrivateRedis redis = PrivateRedis.start();
        RedisLink link = RedisLink.open(redis.uri(), Duration.ofMillis(300))) {
      assertThat(link.commands().ping()).isEqualTo("PONG");
      redis.kill();
      long down = System.nanoTime();
      while (System.nanoTime() - down < OUTAGE.toNanos()) {
        assertThat(answers(link)).as("a command while Redis is dead").isFalse();
        Thread.sleep(200);
      }
      redis.restart();
      long up = System.nanoTime();
      Duration bound = RedisLink.MAX_RECONNECT_DELAY.plusSeconds(3);
      while (!answers(link)) {
        assertThat(Duration.ofNanos(System.nanoTime() - up))
            .as("time from the restart until the link answers again")
            .isLessThan(bound);
        Thread.sleep(50);
      }
    }
  }

  private static boolean answers(RedisLink link) {
    try {
      return "PONG".equals(link.commands().ping());
    } catch (RedisException e) {
      return false;
    }
  }
}
