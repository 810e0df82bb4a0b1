package io.taskq.postgres.internal.maintenance;

import io.taskq.core.internal.config.Knob;
import io.taskq.core.internal.config.KnobCatalog;
import java.util.function.ToIntFunction;
import org.jspecify.annotations.Nullable;

/** Where a sweep's batch size comes from: the batch-size column of {@link SweepCatalog}. */
@SuppressWarnings("ImmutableEnumChecker") // final fields: a knob constant, a method reference
public enum BatchSizeSource {
  /** {@code TASKQ_EVENT_WRITER_BATCH_SIZE}. */
  EVENT_WRITER(KnobCatalog.EVENT_WRITER_BATCH_SIZE, MaintenanceSettings::eventWriterBatchSize),
  /** {@code TASKQ_PRUNE_BATCH_SIZE}. */
  PRUNE(KnobCatalog.PRUNE_BATCH_SIZE, s -> s.sweeps().pruneBatchSize()),
  /** Fixed by the guide: 10 000 rows per tick (S8). */
  EXPIRED_EVENTS(null, s -> 10_000),
  /** Fixed by the guide: 256 rows per table per tick (S9). */
  IDLE_KEYED_ROWS(null, s -> 256);

  private final @Nullable Knob<Integer> knob;
  private final ToIntFunction<MaintenanceSettings> value;

  BatchSizeSource(@Nullable Knob<Integer> knob, ToIntFunction<MaintenanceSettings> value) {
    this.knob = knob;
    this.value = value;
  }

  /** The knob, or null for a size the guide fixes. */
  public @Nullable Knob<Integer> knob() {
    return knob;
  }

  /** The size under {@code settings}. */
  public int of(MaintenanceSettings settings) {
    return value.applyAsInt(settings);
  }
}
