package io.taskq.postgres.internal.sweep;

import io.taskq.TaskQConfig;
import io.taskq.postgres.internal.maintenance.MaintenanceSettings;
import io.taskq.postgres.internal.maintenance.SweepCatalog;
import io.taskq.spi.MaintenanceListener;
import java.util.List;

/**
 * The S4-S11 rows of the {@link SweepCatalog} for {@code config}: kept only until the TaskQ facade
 * asks {@code Maintenance.Builder#everySweep()} instead (issue 12, after the package move).
 */
public final class MaintenanceSweeps {
  private MaintenanceSweeps() {}

  /** The catalog's S4-S9 and S11 specs for {@code config}'s schema, in catalog order. */
  public static List<SweepSpec> of(TaskQConfig config) {
    return SweepCatalog.specs(
        config.schemaName(),
        MaintenanceSettings.from(config),
        MaintenanceListener.NONE,
        row -> !row.breakerWrapped());
  }
}
