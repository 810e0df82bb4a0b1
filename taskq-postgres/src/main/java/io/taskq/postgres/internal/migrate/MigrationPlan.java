package io.taskq.postgres.internal.migrate;

import io.taskq.SchemaMigrationException;
import io.taskq.SchemaName;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Decides which migrations a schema still needs, and refuses a schema this code must not touch.
 *
 * <p>Refused: a recorded version the code does not know (above its latest: the schema is newer than
 * the code; below it: a file was removed from the index), and a recorded checksum that differs from
 * the shipped file (a shipped migration was edited). Both would leave the code running against
 * tables it does not understand.
 */
final class MigrationPlan {
  private final MigrationIndex index;
  private final SchemaName schema;

  MigrationPlan(MigrationIndex index, SchemaName schema) {
    this.index = index;
    this.schema = schema;
  }

  /** The migrations not yet recorded, in version order. */
  List<Migration> pending(Map<Integer, RecordedMigration> recorded) {
    refuseNewer(recorded);
    List<Migration> pending = new ArrayList<>();
    for (Migration m : index.migrations()) {
      RecordedMigration r = recorded.get(m.version());
      if (r == null) {
        pending.add(m);
      } else if (!r.checksum().equals(m.checksum())) {
        throw changed(m, r);
      }
    }
    return List.copyOf(pending);
  }

  private SchemaMigrationException changed(Migration m, RecordedMigration r) {
    return new SchemaMigrationException(
        "migration "
            + m.fileName()
            + " was applied to schema "
            + schema.quoted()
            + " with checksum "
            + r.checksum()
            + ", but this TaskQ ships it with checksum "
            + m.checksum()
            + ": a shipped migration must never change; restore the original file");
  }

  private void refuseNewer(Map<Integer, RecordedMigration> recorded) {
    int latest = index.latestVersion();
    for (RecordedMigration r : recorded.values()) {
      if (r.version() > latest) {
        throw newer(maxVersion(recorded), latest);
      }
      if (index.migrations().stream().noneMatch(m -> m.version() == r.version())) {
        throw new SchemaMigrationException(
            "schema "
                + schema.quoted()
                + " records migration version "
                + r.version()
                + " ("
                + r.name()
                + ") which this TaskQ does not ship");
      }
    }
  }

  private SchemaMigrationException newer(int version, int latest) {
    return new SchemaMigrationException(
        "schema "
            + schema.quoted()
            + " is at migration version "
            + version
            + ", newer than this TaskQ's latest migration version "
            + latest
            + ": run a TaskQ release that knows version "
            + version
            + " (refusing to run old code against a newer schema)");
  }

  private static int maxVersion(Map<Integer, RecordedMigration> recorded) {
    return recorded.keySet().stream().mapToInt(Integer::intValue).max().orElse(0);
  }
}
