package io.taskq.limits;

/**
 * Admits or refuses permits against a named limit, shared by every process that uses the same store
 * and schema (M6: the schema is part of the key, so two schemas never share a limit).
 *
 * <p>Contract for implementations:
 *
 * <ul>
 *   <li>A call never blocks longer than the implementation's store timeout; when the store cannot
 *       answer in time the implementation follows its {@link UnavailablePolicy} and marks the
 *       decision {@link Decision#degraded()}.
 *   <li>A refused call consumes nothing; an admitted call consumes exactly {@code permits}.
 *   <li>{@code name} is caller-supplied: an empty name or one carrying U+0000 is refused with
 *       {@link IllegalArgumentException} (F6), and so is a process-local name starting with {@code
 *       taskq:global:queue:}, which must never reach a store (M7).
 * </ul>
 */
@FunctionalInterface
public interface RateLimiter {
  /**
   * Tries to take {@code permits} from the limit named {@code name}.
   *
   * @return whether the permits were granted, and when to retry if not
   * @param name the limit's key within the schema, e.g. {@code api} or {@code customer:42}
   * @param permits how many to take at once; at least 1 and at most what the limit can ever admit
   *     at once (otherwise the call could never succeed, and is refused with {@link
   *     IllegalArgumentException})
   */
  Decision tryAcquire(String name, int permits);

  /**
   * Tries to take one permit from the limit named {@code name}.
   *
   * @param name the limit's name
   * @return whether the permit was granted, and when to retry if not
   */
  default Decision tryAcquire(String name) {
    return tryAcquire(name, 1);
  }
}
