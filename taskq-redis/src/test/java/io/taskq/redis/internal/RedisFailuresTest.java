package io.taskq.redis.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisBusyException;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandInterruptedException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisLoadingException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Outages follow the policy; defects surface. */
class RedisFailuresTest {
  @Test
  void connectionTimeoutAndRejection_areUnavailability() {
    assertThat(RedisFailures.isUnavailable(new RedisConnectionException("refused"))).isTrue();
    assertThat(RedisFailures.isUnavailable(new RedisCommandTimeoutException("slow"))).isTrue();
    assertThat(RedisFailures.isUnavailable(new RedisException("Currently not connected"))).isTrue();
    assertThat(RedisFailures.isUnavailable(new RedisLoadingException("LOADING"))).isTrue();
    assertThat(RedisFailures.isUnavailable(new RedisBusyException("BUSY script"))).isTrue();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "MASTERDOWN Link with MASTER is down",
        "READONLY You can't write against a read only replica.",
        "TRYAGAIN Multiple keys request during rehashing of slot",
        "CLUSTERDOWN The cluster is down",
        "NOREPLICAS Not enough good replicas to write.",
        "OOM command not allowed when used memory > 'maxmemory'."
      })
  void serverErrorsOfANodeNotServing_areUnavailability(String message) {
    assertThat(RedisFailures.isUnavailable(new RedisCommandExecutionException(message))).isTrue();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "WRONGTYPE Operation against a key holding the wrong kind of value",
        "ERR Error running script",
        "OOMPH not a code"
      })
  void otherServerErrors_areDefects(String message) {
    assertThat(RedisFailures.isUnavailable(new RedisCommandExecutionException(message))).isFalse();
  }

  @Test
  void interruptsAndForeignExceptions_areNotUnavailability() {
    assertThat(
            RedisFailures.isUnavailable(
                new RedisCommandInterruptedException(new InterruptedException())))
        .isFalse();
    assertThat(RedisFailures.isUnavailable(new IllegalStateException("bug"))).isFalse();
    assertThat(RedisFailures.isUnavailable(new RedisCommandExecutionException((String) null)))
        .isFalse();
  }
}
