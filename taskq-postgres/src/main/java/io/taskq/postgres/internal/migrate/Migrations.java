package io.taskq.postgres.internal.migrate;

import io.taskq.SchemaMigrationException;
import io.taskq.SchemaName;
import io.taskq.operations.SchemaStatus;
import io.taskq.postgres.internal.NamedStatements;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings a schema to the latest migration (U1).
 *
 * <p>How it runs, on one connection:
 *
 * <ol>
 *   <li>takes the session advisory lock {@code taskq:migrate:{schema}} ({@code pg_advisory_lock}),
 *       waiting at most the lock wait, so concurrent starters queue and exactly one does the work;
 *   <li>creates the schema when missing, and the history table {@code schema_migrations};
 *   <li>refuses a schema that records a version newer than the code, or a recorded checksum that
 *       differs from the shipped file;
 *   <li>applies each missing file in version order, each in its own transaction together with its
 *       history row, so a failing file rolls back alone and the earlier ones stay applied;
 *   <li>releases the lock in {@code finally} (a broken connection releases it too).
 * </ol>
 *
 * A session lock (rather than one transaction-scoped lock around everything) lets each file commit
 * on its own and keeps a long migration from holding one giant transaction. Statements of a
 * migration run without a statement timeout (index builds may be long); the lock wait is bounded.
 */
public final class Migrations {
  /** How long a starter waits for another process's migration before giving up. */
  public static final Duration DEFAULT_LOCK_WAIT = Duration.ofMinutes(5);

  private static final Logger LOG = LoggerFactory.getLogger(Migrations.class);
  private static final String STATEMENTS = "io/taskq/postgres/sql/migrate.sql";

  private final MigrationIndex index;
  private final Duration lockWait;

  Migrations(MigrationIndex index, Duration lockWait) {
    this.index = index;
    this.lockWait = lockWait;
  }

  /**
   * Applies the shipped migrations to {@code schema} on a connection borrowed from {@code ds}.
   *
   * @return the migrations this call applied, in order; empty when the schema was up to date
   * @throws SchemaMigrationException when the schema is newer than the code, a recorded checksum
   *     differs, a migration fails or the lock wait ran out
   */
  public static List<Migration> apply(DataSource ds, SchemaName schema) {
    return new Migrations(MigrationIndex.builtIn(), DEFAULT_LOCK_WAIT).applyTo(ds, schema);
  }

  /**
   * Applies the shipped migrations on the caller's connection, which must be in auto-commit mode
   * (each migration commits its own transaction). The connection is left open, in auto-commit.
   *
   * @see #apply(DataSource, SchemaName)
   */
  public static List<Migration> apply(Connection connection, SchemaName schema) {
    return new Migrations(MigrationIndex.builtIn(), DEFAULT_LOCK_WAIT).applyTo(connection, schema);
  }

  /**
   * A7: what {@code schema} records and what is pending, read without creating or locking anything.
   *
   * @throws SchemaMigrationException when the database cannot be read
   */
  public static SchemaStatus status(DataSource ds, SchemaName schema) {
    return read(ds, schema, (history, c) -> history.status(c));
  }

  /**
   * A7: the status of a current schema, read without creating or locking anything.
   *
   * @throws SchemaMigrationException naming what is pending, newer, foreign or changed
   */
  public static SchemaStatus verify(DataSource ds, SchemaName schema) {
    return read(ds, schema, (history, c) -> history.verify(c));
  }

  private interface HistoryRead {
    SchemaStatus read(SchemaHistory history, Connection c) throws SQLException;
  }

  private static SchemaStatus read(DataSource ds, SchemaName schema, HistoryRead read) {
    NamedStatements sql = NamedStatements.load(STATEMENTS, schema);
    try (Connection c = ds.getConnection()) {
      return read.read(new SchemaHistory(MigrationIndex.builtIn(), schema, sql), c);
    } catch (SQLException e) {
      throw new SchemaMigrationException(
          "cannot read the migrations of schema " + schema.quoted() + ": " + describe(e), e);
    }
  }

  /** The newest version the shipped migrations reach. */
  public static int latestVersion() {
    return MigrationIndex.builtIn().latestVersion();
  }

  List<Migration> applyTo(DataSource ds, SchemaName schema) {
    try (Connection connection = ds.getConnection()) {
      return applyTo(connection, schema);
    } catch (SQLException e) {
      throw new SchemaMigrationException(
          "cannot migrate schema " + schema.quoted() + ": " + e.getMessage(), e);
    }
  }

  List<Migration> applyTo(Connection connection, SchemaName schema) {
    NamedStatements sql = NamedStatements.load(STATEMENTS, schema);
    MigrateLock lock = new MigrateLock(sql, schema, lockWait);
    try {
      if (!connection.getAutoCommit()) {
        throw new IllegalArgumentException(
            "migrations need a connection in auto-commit mode: each file commits on its own");
      }
      lock.lock(connection);
      try {
        return migrateLocked(connection, sql, schema);
      } finally {
        lock.unlock(connection);
      }
    } catch (SQLException e) {
      throw new SchemaMigrationException(
          "cannot migrate schema " + schema.quoted() + ": " + describe(e), e);
    }
  }

  private List<Migration> migrateLocked(Connection c, NamedStatements sql, SchemaName schema)
      throws SQLException {
    createSchemaIfMissing(c, sql, schema);
    // A7: only when missing, so a role without CREATE applies nothing to a current schema.
    if (!new SchemaHistory(index, schema, sql).exists(c)) {
      try (Statement s = c.createStatement()) {
        s.execute(sql.get("create_history"));
      }
    }
    List<Migration> pending = new MigrationPlan(index, schema).pending(recorded(c, sql));
    for (Migration m : pending) {
      MigrationStep.apply(c, sql, schema, m);
    }
    if (pending.isEmpty()) {
      LOG.debug("schema {} is up to date at version {}", schema.quoted(), index.latestVersion());
    } else {
      LOG.info("schema {} migrated to version {}", schema.quoted(), index.latestVersion());
    }
    return pending;
  }

  private static void createSchemaIfMissing(Connection c, NamedStatements sql, SchemaName schema)
      throws SQLException {
    boolean exists;
    try (PreparedStatement ps = c.prepareStatement(sql.get("schema_exists"))) {
      ps.setString(1, schema.value());
      try (ResultSet rs = ps.executeQuery()) {
        exists = rs.next() && rs.getBoolean(1);
      }
    }
    if (!exists) {
      try (Statement s = c.createStatement()) {
        s.execute(sql.get("create_schema"));
      }
      LOG.info("created schema {}", schema.quoted());
    }
  }

  private static Map<Integer, RecordedMigration> recorded(Connection c, NamedStatements sql)
      throws SQLException {
    Map<Integer, RecordedMigration> out = new LinkedHashMap<>();
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql.get("applied"))) {
      while (rs.next()) {
        int version = rs.getInt(1);
        out.put(version, new RecordedMigration(version, rs.getString(2), rs.getString(3)));
      }
    }
    return out;
  }

  /** The failure's message and SQLSTATE, for the errors of a failed migration. */
  static String describe(SQLException e) {
    return e.getMessage() + " (SQLSTATE " + e.getSQLState() + ")";
  }
}
