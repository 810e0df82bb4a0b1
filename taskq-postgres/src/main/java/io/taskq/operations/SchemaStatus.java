package io.taskq.operations;

import java.util.List;

/**
 * Where a schema stands against the migrations this TaskQ ships (A7).
 *
 * @param schema the schema's name
 * @param currentVersion the newest version it records, 0 when it has none (or does not exist)
 * @param latestVersion the newest version this TaskQ ships
 * @param applied what it records, in version order
 * @param pending the file names this TaskQ ships that it does not record yet, in order
 */
public record SchemaStatus(
    String schema,
    int currentVersion,
    int latestVersion,
    List<AppliedMigration> applied,
    List<String> pending) {

  /**
   * Copies the lists.
   *
   * @param applied what it records, in version order
   * @param currentVersion the newest version it records, 0 when it has none (or does not exist)
   * @param latestVersion the newest version this TaskQ ships
   * @param pending the file names this TaskQ ships that it does not record yet, in order
   * @param schema the schema's name
   */
  public SchemaStatus {
    applied = List.copyOf(applied);
    pending = List.copyOf(pending);
  }

  /**
   * {@return whether the schema records exactly what this TaskQ ships: nothing pending, nothing
   * foreign}
   */
  public boolean isCurrent() {
    return pending.isEmpty()
        && currentVersion <= latestVersion
        && applied.stream().allMatch(AppliedMigration::checksumMatches);
  }
}
