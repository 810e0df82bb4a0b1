package io.taskq.postgres.internal.migrate;

import io.taskq.SchemaMigrationException;
import io.taskq.SchemaName;
import io.taskq.core.internal.AdvisoryLockName;
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
    long key = AdvisoryLockName.of(AdvisoryLockName.Purpose.MIGRATE, schema).key();
    try {
      if (!connection.getAutoCommit()) {
        throw new IllegalArgumentException(
            "migrations need a connection in auto-commit mode: each file commits on its own");
      }
      lock(connection, sql, schema, key);
      try {
        return migrateLocked(connection, sql, schema);
      } finally {
        unlock(connection, sql, key);
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
      applyOne(c, sql, schema, m);
    }
    if (pending.isEmpty()) {
      LOG.debug("schema {} is up to date at version {}", schema.quoted(), index.latestVersion());
    } else {
      LOG.info("schema {} migrated to version {}", schema.quoted(), index.latestVersion());
    }
    return pending;
  }

  private void lock(Connection c, NamedStatements sql, SchemaName schema, long key)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.get("lock"))) {
      ps.setLong(1, key);
      ps.setQueryTimeout((int) Math.max(1, lockWait.toSeconds()));
      ps.execute();
    } catch (SQLException e) {
      if ("57014".equals(e.getSQLState())) {
        throw new SchemaMigrationException(
            "waited "
                + lockWait
                + " for the migrate lock 'taskq:migrate:"
                + schema.value()
                + "' held by another process migrating schema "
                + schema.quoted()
                + "; is a migration stuck?",
            e);
      }
      throw e;
    }
  }

  private static void unlock(Connection c, NamedStatements sql, long key) {
    try (PreparedStatement ps = c.prepareStatement(sql.get("unlock"))) {
      ps.setLong(1, key);
      ps.execute();
    } catch (SQLException e) {
      // A broken connection has already released its session locks.
      LOG.warn("could not release the migrate lock; the session ends it: {}", e.getMessage());
    }
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

  private static Map<Integer, MigrationPlan.Recorded> recorded(Connection c, NamedStatements sql)
      throws SQLException {
    Map<Integer, MigrationPlan.Recorded> out = new LinkedHashMap<>();
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql.get("applied"))) {
      while (rs.next()) {
        int version = rs.getInt(1);
        out.put(version, new MigrationPlan.Recorded(version, rs.getString(2), rs.getString(3)));
      }
    }
    return out;
  }

  private static void applyOne(Connection c, NamedStatements sql, SchemaName schema, Migration m)
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
      throw new SchemaMigrationException(
          "migration "
              + m.fileName()
              + " failed on schema "
              + schema.quoted()
              + " and was rolled back: "
              + describe(e),
          e);
    } finally {
      c.setAutoCommit(true);
    }
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

  private static String describe(SQLException e) {
    return e.getMessage() + " (SQLSTATE " + e.getSQLState() + ")";
  }
}
