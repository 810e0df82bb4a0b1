package io.taskq.redis.internal;

import io.lettuce.core.RedisBusyException;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandInterruptedException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisLoadingException;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Tells "Redis cannot answer now" (D14: follow the unavailability policy) from "this call is wrong"
 * (a bug: let it surface).
 *
 * <p>Unavailable: no connection, a refused or reset connection, a command past its timeout, and the
 * server errors a healthy deployment returns while it is not serving: {@code LOADING}, {@code
 * BUSY}, {@code MASTERDOWN}, {@code READONLY} (a failover demoted our node), {@code TRYAGAIN},
 * {@code CLUSTERDOWN}, {@code NOREPLICAS} and {@code OOM}. Everything else the server answers
 * ({@code WRONGTYPE}, a script error) is a defect and propagates, and so does an interrupt.
 */
public final class RedisFailures {
  private static final List<String> NOT_SERVING =
      List.of(
          "LOADING",
          "BUSY",
          "MASTERDOWN",
          "READONLY",
          "TRYAGAIN",
          "CLUSTERDOWN",
          "NOREPLICAS",
          "OOM");

  private RedisFailures() {}

  /** Whether {@code failure} means Redis is unavailable rather than the call being wrong. */
  public static boolean isUnavailable(Throwable failure) {
    if (failure instanceof RedisCommandInterruptedException) {
      return false;
    }
    if (failure instanceof RedisLoadingException || failure instanceof RedisBusyException) {
      return true;
    }
    if (failure instanceof RedisCommandExecutionException) {
      return notServing(failure.getMessage());
    }
    return failure instanceof RedisException;
  }

  private static boolean notServing(@Nullable String message) {
    if (message == null) {
      return false;
    }
    String upper = message.toUpperCase(Locale.ROOT);
    return NOT_SERVING.stream()
        .anyMatch(code -> upper.startsWith(code + " ") || upper.equals(code));
  }
}
