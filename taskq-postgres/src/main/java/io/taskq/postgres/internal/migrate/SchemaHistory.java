package io.taskq.postgres.internal.migrate;

import io.taskq.SchemaMigrationException;
import io.taskq.SchemaName;
import io.taskq.operations.AppliedMigration;
import io.taskq.operations.SchemaStatus;
import io.taskq.postgres.internal.NamedStatements;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads a schema's {@code schema_migrations} without creating or locking anything (A7): what the
 * {@code verify} and {@code status} operations and {@code TASKQ_MIGRATE=verify} need, so a role
 * without CREATE can run them.
 */
final class SchemaHistory {
  private final MigrationIndex index;
  private final SchemaName schema;
  private final NamedStatements sql;

  SchemaHistory(MigrationIndex index, SchemaName schema, NamedStatements sql) {
    this.index = index;
    this.schema = schema;
    this.sql = sql;
  }

  /** Whether the history table exists (the schema was ever migrated). */
  boolean exists(Connection c) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.get("history_exists"))) {
      ps.setString(1, schema.quoted() + ".schema_migrations");
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() && rs.getBoolean(1);
      }
    }
  }

  SchemaStatus status(Connection c) throws SQLException {
    List<AppliedMigration> applied = exists(c) ? read(c) : List.of();
    Set<Integer> recorded = new TreeSet<>();
    applied.forEach(a -> recorded.add(a.version()));
    List<String> pending = new ArrayList<>();
    for (Migration m : index.migrations()) {
      if (!recorded.contains(m.version())) {
        pending.add(m.fileName());
      }
    }
    int current = recorded.stream().mapToInt(Integer::intValue).max().orElse(0);
    return new SchemaStatus(schema.value(), current, index.latestVersion(), applied, pending);
  }

  /**
   * The status when current.
   *
   * @throws SchemaMigrationException naming what is newer, foreign, changed or pending
   */
  SchemaStatus verify(Connection c) throws SQLException {
    SchemaStatus status = status(c);
    Map<Integer, RecordedMigration> recorded = new LinkedHashMap<>();
    status
        .applied()
        .forEach(
            a ->
                recorded.put(
                    a.version(), new RecordedMigration(a.version(), a.name(), a.checksum())));
    new MigrationPlan(index, schema).pending(recorded);
    if (!status.pending().isEmpty()) {
      throw pending(status);
    }
    return status;
  }

  private SchemaMigrationException pending(SchemaStatus status) {
    return new SchemaMigrationException(
        "schema "
            + schema.quoted()
            + " is at migration version "
            + status.currentVersion()
            + " of "
            + status.latestVersion()
            + "; pending: "
            + String.join(", ", status.pending())
            + " (apply them with `taskq migrate`, taskq.migrations().apply() or"
            + " TASKQ_MIGRATE=apply, as a role that may create tables)");
  }

  private List<AppliedMigration> read(Connection c) throws SQLException {
    Map<Integer, String> shipped = new LinkedHashMap<>();
    index.migrations().forEach(m -> shipped.put(m.version(), m.checksum()));
    List<AppliedMigration> out = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement(sql.get("applied_at"));
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        int version = rs.getInt("version");
        String checksum = rs.getString("checksum");
        OffsetDateTime at = rs.getObject("applied_at", OffsetDateTime.class);
        out.add(
            new AppliedMigration(
                version,
                fileName(version, rs.getString("name")),
                checksum,
                at == null ? null : at.toInstant(),
                checksum.equals(shipped.get(version))));
      }
    }
    return out;
  }

  private static String fileName(int version, String name) {
    return String.format(java.util.Locale.ROOT, "V%03d__%s.sql", version, name);
  }
}
