package io.taskq.redis;

import io.taskq.limits.Decision;
import io.taskq.limits.RateLimit;
import io.taskq.limits.RateLimiter;
import io.taskq.limits.UnavailablePolicy;
import io.taskq.redis.internal.LimitScript;
import io.taskq.redis.internal.RedisFailures;
import io.taskq.redis.internal.RedisLink;
import java.util.Objects;

/**
 * A keyed rate limit in Redis (M5, D13, D14): one of the three algorithms of {@link RateLimit},
 * applied separately to every name, shared by every process on the same Redis and schema.
 *
 * <p>Each decision is one {@code EVALSHA} of a Lua script touching exactly one key ({@code
 * taskq:{schema}:rl:tb:{name}}, {@code taskq:{schema}:sw:{name}} or {@code
 * taskq:{schema}:sw_gcra:{name}}), atomic on the server and timed by the server's clock. Keys carry
 * a TTL, so idle names vanish from Redis on their own.
 *
 * <p>When Redis does not answer within the command timeout (down, stalled, failing over), the call
 * returns the {@link UnavailablePolicy}'s decision, marked {@link Decision#degraded()}: it never
 * hangs and never throws for want of Redis. Programming errors still throw: a bad name (empty, NUL,
 * process-local; F6, M7) or more permits than the limit can ever grant. A call that timed out may
 * still have taken its permits on the server once it answered: the limit errs toward admitting
 * less.
 */
public final class RedisRateLimiter implements RateLimiter {
  private final RedisLink link;
  private final LimitScript script;
  private final RateLimit limit;
  private final UnavailablePolicy onUnavailable;

  private RedisRateLimiter(
      RedisConnector connector, RateLimit limit, UnavailablePolicy onUnavailable) {
    this.link = connector.link();
    this.limit = Objects.requireNonNull(limit, "limit");
    this.script = LimitScript.of(limit, connector.keys());
    this.onUnavailable = Objects.requireNonNull(onUnavailable, "onUnavailable");
  }

  /**
   * A limiter applying {@code limit} to every name, in {@code connector}'s Redis and schema.
   *
   * @param connector the Redis connection and schema the counters live in
   * @param limit the limit applied to each name separately
   * @return a new limiter
   * @param onUnavailable what to decide while Redis cannot answer; there is deliberately no default
   *     (see {@code docs/rate-limits.md} for choosing)
   */
  public static RedisRateLimiter create(
      RedisConnector connector, RateLimit limit, UnavailablePolicy onUnavailable) {
    Objects.requireNonNull(connector, "connector");
    return new RedisRateLimiter(connector, limit, onUnavailable);
  }

  @Override
  public Decision tryAcquire(String name, int permits) {
    script.key(name);
    limit.requirePermits(permits);
    Decision decision;
    try {
      decision = script.decide(link.commands(), name, permits, null);
    } catch (RuntimeException failure) {
      if (!RedisFailures.isUnavailable(failure)) {
        throw failure;
      }
      link.markUnavailable(failure, "rate limits follow " + onUnavailable);
      return onUnavailable.decide(name, permits);
    }
    link.markAvailable();
    return decision;
  }

  /** {@return the limit this limiter applies} */
  public RateLimit limit() {
    return limit;
  }

  /** {@return what this limiter decides while Redis cannot answer} */
  public UnavailablePolicy onUnavailable() {
    return onUnavailable;
  }

  @Override
  public String toString() {
    return "RedisRateLimiter{" + limit + ", onUnavailable=" + onUnavailable + "}";
  }
}
