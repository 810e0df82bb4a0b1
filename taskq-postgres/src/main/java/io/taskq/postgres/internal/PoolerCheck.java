package io.taskq.postgres.internal;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import io.taskq.TaskQConfig;
import io.taskq.TaskQConfigException;
import io.taskq.postgres.internal.startup.TransactionPooler;
import io.taskq.postgres.internal.startup.UnreachableDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The start-up check for a transaction-pooling proxy (R2, D8): probes the database TaskQ uses for
 * its statements ({@link TransactionPooler}) and says what it found.
 *
 * <ul>
 *   <li>No pooler: nothing is logged.
 *   <li>A pooler and {@code TASKQ_DATABASE_DIRECT_URL} set: an INFO line naming both; the direct
 *       URL must not be pooled itself (refused); TaskQ's own pool uses {@code prepareThreshold=0};
 *       an application {@code DataSource} with a positive {@code prepareThreshold} is a WARN.
 *   <li>A pooler and no direct URL: a process that needs a session (migrations applied at start, a
 *       worker's LISTEN, the maintenance leader's lock) is refused with a {@link
 *       TaskQConfigException} naming the pooler and the fix, after an ERROR line saying the same; a
 *       process that needs none (a producer with migrations off and no maintenance) goes on with a
 *       WARN.
 * </ul>
 */
public final class PoolerCheck {
  private static final Logger LOG = LoggerFactory.getLogger(PoolerCheck.class);

  private PoolerCheck() {}

  /**
   * Runs the check.
   *
   * @param given the application's DataSource, or null when TaskQ opens its own pool
   * @param needsSession whether this process needs a session of its own (see the class comment)
   * @return whether a transaction pooler was found (TaskQ's own pool then uses {@code
   *     prepareThreshold=0})
   * @throws TaskQConfigException when the process cannot work behind the pooler found
   * @throws IllegalStateException naming {@code TASKQ_DATABASE_URL} when it does not answer
   */
  public static boolean check(
      TaskQConfig config, @Nullable DataSource given, boolean needsSession) {
    TransactionPooler.Seen seen;
    String where;
    if (given == null) {
      if (config.databaseUrl().isEmpty()) {
        return false;
      }
      JdbcTarget pooled = OwnedPool.pooledTarget(config);
      where = "TASKQ_DATABASE_URL (" + TransactionPooler.where(pooled) + ")";
      try {
        seen = TransactionPooler.probe(() -> physical(pooled, config), Runnable::run);
      } catch (SQLException e) {
        throw UnreachableDatabase.of(pooled.url(), e);
      }
    } else {
      if (!canLendTwo(given)) {
        LOG.debug(
            "the application's pool has no two idle connections; no transaction-pooler probe");
        return false;
      }
      where = "the application's DataSource";
      try {
        seen = TransactionPooler.probe(given::getConnection, Runnable::run);
      } catch (SQLException e) {
        LOG.debug("could not probe the application's DataSource for a transaction pooler", e);
        return false;
      }
    }
    if (!seen.pooled()) {
      return false;
    }
    String found =
        where
            + " reaches PostgreSQL through a transaction-pooling proxy (such as PgBouncer with"
            + " pool_mode=transaction): server backend "
            + seen.sharedPid().getAsLong()
            + " served two of its sessions, so a session does not keep its server connection"
            + " from one transaction to the next.";
    Optional<JdbcTarget> direct = OwnedPool.directTarget(config);
    if (direct.isEmpty()) {
      if (needsSession) {
        String message =
            found
                + " The migrations' lock, the maintenance leader's lock and LISTEN (wake-ups) need"
                + " a session of their own: set TASKQ_DATABASE_DIRECT_URL to a URL that reaches"
                + " PostgreSQL directly, bypassing the pooler (docs/configuration.md, Transaction"
                + " poolers)";
        LOG.error("TaskQ refuses to start: {}", message);
        throw new TaskQConfigException(
            List.of(
                new TaskQConfigException.Problem(
                    List.of("TASKQ_DATABASE_URL", "TASKQ_DATABASE_DIRECT_URL"), message)));
      }
      LOG.warn(
          "{} This process applies no migrations and runs no worker or maintenance, so it needs no"
              + " session of its own and goes on{}",
          found,
          given == null ? "; TaskQ's pool uses prepareThreshold=0" : "");
      warnPrepareThreshold(given, seen);
      return true;
    }
    JdbcTarget directTarget = direct.get();
    TransactionPooler.Seen directSeen;
    try {
      directSeen = TransactionPooler.probe(() -> physical(directTarget, config), Runnable::run);
    } catch (SQLException e) {
      throw UnreachableDatabase.of(directTarget.url(), e);
    }
    if (directSeen.pooled()) {
      String message =
          "TASKQ_DATABASE_DIRECT_URL ("
              + TransactionPooler.where(directTarget)
              + ") goes through a transaction-pooling proxy too: server backend "
              + directSeen.sharedPid().getAsLong()
              + " served two of its sessions. Point it at PostgreSQL itself, bypassing the pooler";
      LOG.error("TaskQ refuses to start: {}", message);
      throw new TaskQConfigException(
          List.of(new TaskQConfigException.Problem(List.of("TASKQ_DATABASE_DIRECT_URL"), message)));
    }
    LOG.info(
        "{} Migrations, the maintenance leader's lock and LISTEN use TASKQ_DATABASE_DIRECT_URL"
            + " ({}){}",
        found,
        TransactionPooler.where(directTarget),
        given == null ? "; TaskQ's pool uses prepareThreshold=0 unless the URL sets it" : "");
    warnPrepareThreshold(given, seen);
    return true;
  }

  private static void warnPrepareThreshold(
      @Nullable DataSource given, TransactionPooler.Seen seen) {
    if (given != null && seen.prepareThreshold() > 0) {
      LOG.warn(
          "the application's DataSource uses PgJDBC prepareThreshold={} behind a transaction"
              + " pooler: before PgBouncer 1.21 (and on later ones without max_prepared_statements)"
              + " its named prepared statements fail with 'prepared statement \"S_1\" does not"
              + " exist': add prepareThreshold=0 to its URL",
          seen.prepareThreshold());
    }
  }

  private static Connection physical(JdbcTarget target, TaskQConfig config) throws SQLException {
    return DriverManager.getConnection(
        target.url(), target.over(OwnedPool.driverProperties(config)));
  }

  /** Whether borrowing two connections from {@code ds} now would not wait for a free one. */
  private static boolean canLendTwo(DataSource ds) {
    try {
      if (!ds.isWrapperFor(HikariDataSource.class)) {
        return true;
      }
      HikariDataSource hikari = ds.unwrap(HikariDataSource.class);
      HikariPoolMXBean pool = hikari.getHikariPoolMXBean();
      if (pool == null) {
        return hikari.getMaximumPoolSize() >= 2;
      }
      int free =
          pool.getIdleConnections() + hikari.getMaximumPoolSize() - pool.getTotalConnections();
      return free >= 2;
    } catch (SQLException e) {
      return false;
    }
  }
}
