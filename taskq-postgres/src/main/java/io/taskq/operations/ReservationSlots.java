package io.taskq.operations;

import java.util.Objects;

/**
 * The reservation slots of one concurrency-cap scope (L7), from {@link
 * Operations#reservationSlots()}: the source of the {@code taskq.reservation_slots.held} and {@code
 * taskq.reservation_slots.capacity} gauges (O1 reservation slots).
 *
 * @param kind {@code queue}, {@code actor}, or {@code key} (every keyed cap together)
 * @param name the queue or actor, or {@link #ALL_KEYS} for the keyed caps
 * @param held slots held by a running job now (a slot whose holder died stays held until its lease
 *     passes and the leaked-slot sweep frees it)
 * @param capacity the scope's slot rows, its cap; 0 for the keyed caps, each key having its own
 */
public record ReservationSlots(String kind, String name, long held, long capacity) {
  /** The name the keyed caps are summed under: one scope per key would be an unbounded label. */
  public static final String ALL_KEYS = "*";

  /**
   * Validates the reading.
   *
   * @param kind {@code queue}, {@code actor}, or {@code key}
   * @param name the queue or actor, or {@link #ALL_KEYS}
   * @param held slots held now
   * @param capacity the scope's slot rows; 0 for the keyed caps
   */
  public ReservationSlots {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(name, "name");
  }
}
