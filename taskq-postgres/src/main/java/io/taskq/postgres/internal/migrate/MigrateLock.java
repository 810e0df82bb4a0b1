package io.taskq.postgres.internal.migrate;

import io.taskq.SchemaMigrationException;
import io.taskq.SchemaName;
import io.taskq.core.internal.AdvisoryLockName;
import io.taskq.postgres.internal.NamedStatements;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The session advisory lock {@code taskq:migrate:{schema}} ({@code pg_advisory_lock}, U1) that
 * makes concurrent starters queue, so exactly one of them migrates the schema. Taking it waits at
 * most the lock wait; releasing it never fails the migration (a broken connection has released it).
 */
final class MigrateLock {
  private static final Logger LOG = LoggerFactory.getLogger(MigrateLock.class);

  private final NamedStatements sql;
  private final SchemaName schema;
  private final Duration wait;
  private final long key;

  MigrateLock(NamedStatements sql, SchemaName schema, Duration wait) {
    this.sql = sql;
    this.schema = schema;
    this.wait = wait;
    this.key = AdvisoryLockName.of(AdvisoryLockName.Purpose.MIGRATE, schema).key();
  }

  /**
   * Takes the lock on {@code c}'s session.
   *
   * @throws SchemaMigrationException naming the lock when the wait ran out
   */
  void lock(Connection c) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.get("lock"))) {
      ps.setLong(1, key);
      ps.setQueryTimeout((int) Math.max(1, wait.toSeconds()));
      ps.execute();
    } catch (SQLException e) {
      if ("57014".equals(e.getSQLState())) {
        throw new SchemaMigrationException(
            "waited "
                + wait
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

  /** Releases the lock taken on {@code c}'s session; a failure is logged, never thrown. */
  void unlock(Connection c) {
    try (PreparedStatement ps = c.prepareStatement(sql.get("unlock"))) {
      ps.setLong(1, key);
      ps.execute();
    } catch (SQLException e) {
      // A broken connection has already released its session locks.
      LOG.warn("could not release the migrate lock; the session ends it: {}", e.getMessage());
    }
  }
}
