package io.taskq.limits;

import java.time.Duration;
import java.util.Objects;

/**
 * What a limiter decides when its store cannot answer within its timeout (D14): the store is down,
 * unreachable, stalled, loading or failing over. Whatever the choice, the call returns within the
 * timeout and no job is lost: a refused job is rescheduled, never dropped.
 *
 * <ul>
 *   <li>{@link #failOpen()}: admit. The work keeps flowing, unlimited while the store is away.
 *       Choose it when the limit protects something that tolerates a short overload.
 *   <li>{@link #failClosed(Duration)}: refuse, asking the caller to retry after the given delay.
 *       Choose it when exceeding the limit is worse than waiting (a paid API, a contract).
 *   <li>{@link #fallbackTo(RateLimiter)}: ask another limiter, typically the PostgreSQL sliding
 *       window, so limits still hold (more slowly) without Redis. If the fallback itself fails, its
 *       exception reaches the caller.
 * </ul>
 *
 * Decisions made under a policy are {@link Decision#degraded() degraded}.
 */
public sealed interface UnavailablePolicy
    permits UnavailablePolicy.FailOpen, UnavailablePolicy.FailClosed, UnavailablePolicy.Fallback {

  /** {@return a policy that admits every request while the store is unavailable} */
  static UnavailablePolicy failOpen() {
    return new FailOpen();
  }

  /**
   * {@return a policy that refuses every request while the store is unavailable, telling the caller
   * to retry after {@code retryAfter}}
   *
   * @param retryAfter how long callers should wait; positive
   * @throws IllegalArgumentException when {@code retryAfter} is zero or negative
   */
  static UnavailablePolicy failClosed(Duration retryAfter) {
    return new FailClosed(retryAfter);
  }

  /**
   * {@return a policy that asks {@code fallback} while the store is unavailable}
   *
   * @param fallback the limiter to ask instead
   */
  static UnavailablePolicy fallbackTo(RateLimiter fallback) {
    return new Fallback(fallback);
  }

  /**
   * {@return the decision for {@code permits} of {@code name} without the store; always {@link
   * Decision#degraded()}}
   *
   * @param name the limit's name
   * @param permits the permits asked for
   */
  Decision decide(String name, int permits);

  /** Admit: see {@link #failOpen()}. */
  record FailOpen() implements UnavailablePolicy {
    @Override
    public Decision decide(String name, int permits) {
      return new Decision(true, Duration.ZERO, Decision.UNKNOWN_REMAINING, true);
    }
  }

  /**
   * Refuse: see {@link #failClosed(Duration)}.
   *
   * @param retryAfter what a refused caller is told; positive
   */
  record FailClosed(Duration retryAfter) implements UnavailablePolicy {
    /**
     * Validates {@code retryAfter}.
     *
     * @param retryAfter how long callers should wait; positive
     */
    public FailClosed {
      Objects.requireNonNull(retryAfter, "retryAfter");
      if (retryAfter.isNegative() || retryAfter.isZero()) {
        throw new IllegalArgumentException(
            "fail-closed retryAfter must be positive, was " + retryAfter);
      }
    }

    @Override
    public Decision decide(String name, int permits) {
      return new Decision(false, retryAfter, Decision.UNKNOWN_REMAINING, true);
    }
  }

  /**
   * Delegate: see {@link #fallbackTo(RateLimiter)}.
   *
   * @param limiter the limiter asked instead of the unavailable store
   */
  record Fallback(RateLimiter limiter) implements UnavailablePolicy {
    /**
     * Validates {@code limiter}.
     *
     * @param limiter the limiter to ask instead
     */
    public Fallback {
      Objects.requireNonNull(limiter, "fallback limiter");
    }

    @Override
    public Decision decide(String name, int permits) {
      return limiter.tryAcquire(name, permits).asDegraded();
    }
  }
}
