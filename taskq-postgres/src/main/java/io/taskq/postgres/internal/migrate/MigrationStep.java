package io.taskq.postgres.internal.migrate;

import io.taskq.SchemaMigrationException;
import io.taskq.SchemaName;
import io.taskq.postgres.internal.NamedStatements;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies one migration file in its own transaction together with its {@code schema_migrations} row
 * (U1), so a failing file rolls back alone and the files before it stay applied.
 */
final class MigrationStep {
  private static final Logger LOG = LoggerFactory.getLogger(MigrationStep.class);

  private MigrationStep() {}

  /**
   * Applies {@code m} to {@code schema} on {@code c}, which is in auto-commit mode and is left so.
   *
   * @throws SchemaMigrationException naming the file when it failed and was rolled back
   */
  static void apply(Connection c, NamedStatements sql, SchemaName schema, Migration m)
      throws SQLException {
    LOG.info("applying migration {} to schema {}", m.fileName(), schema.quoted());
    c.setAutoCommit(false);
    try {
      try (Statement s = c.createStatement()) {
        s.execute(NamedStatements.substitute(m.text(), schema));
      }
      record(c, sql, m);
      c.commit();
    } catch (SQLException e) {
      rollbackQuietly(c);
      throw failed(m, schema, e);
    } finally {
      c.setAutoCommit(true);
    }
  }

  private static SchemaMigrationException failed(Migration m, SchemaName schema, SQLException e) {
    return new SchemaMigrationException(
        "migration "
            + m.fileName()
            + " failed on schema "
            + schema.quoted()
            + " and was rolled back: "
            + Migrations.describe(e),
        e);
  }

  /** Records {@code m} as applied, in the transaction that applied it. */
  private static void record(Connection c, NamedStatements sql, Migration m) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.get("record"))) {
      ps.setInt(1, m.version());
      ps.setString(2, m.name());
      ps.setString(3, m.checksum());
      ps.executeUpdate();
    }
  }

  private static void rollbackQuietly(Connection c) {
    try {
      c.rollback();
    } catch (SQLException e) {
      LOG.debug("rollback after a failed migration failed too", e);
    }
  }
}
