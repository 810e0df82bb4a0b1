package io.taskq.postgres.internal.caps;

import java.time.Duration;
import java.util.Objects;

/**
 * What a worker needs to enforce concurrency caps (L7) and keep its reservation registry bounded
 * (S10).
 *
 * @param caps the caps to enforce at claim time
 * @param maxKeyedReservations {@code max_keyed_reservations}: scopes the worker's registry holds
 * @param evictionInterval how often the worker evicts idle scopes and drains the evicted ones
 *     ({@code sweep_interval}); a scope unused for this long is idle
 */
public record CapsSettings(
    ConcurrencyCaps caps, int maxKeyedReservations, Duration evictionInterval) {
  public CapsSettings {
    Objects.requireNonNull(caps, "caps");
    Objects.requireNonNull(evictionInterval, "evictionInterval");
    if (maxKeyedReservations < 1) {
      throw new IllegalArgumentException(
          "max_keyed_reservations must be >= 1, was " + maxKeyedReservations);
    }
    if (evictionInterval.isNegative() || evictionInterval.isZero()) {
      throw new IllegalArgumentException(
          "evictionInterval must be positive, was " + evictionInterval);
    }
  }

  /** No caps: the worker claims with the plain statement and runs no drain. */
  public static CapsSettings none() {
    return new CapsSettings(ConcurrencyCaps.none(), 1, Duration.ofSeconds(30));
  }
}
