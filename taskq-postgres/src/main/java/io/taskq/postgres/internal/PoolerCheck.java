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
    Optional<Probe> probe = given == null ? probeOwnPool(config) : probeGiven(given);
    if (probe.isEmpty() || !probe.get().seen().pooled()) {
      return false;
    }
    TransactionPooler.Seen seen = probe.get().seen();
    String found = found(probe.get().where(), seen);
    Optional<JdbcTarget> direct = OwnedPool.directTarget(config);
    if (direct.isEmpty()) {
      goOnWithoutSession(found, given, needsSession);
    } else {
      refusePooledDirect(direct.get(), config);
      LOG.info(
          "{} Migrations, the maintenance leader's lock and LISTEN use TASKQ_DATABASE_DIRECT_URL"
              + " ({}){}",
          found,
          TransactionPooler.where(direct.get()),
          given == null ? "; TaskQ's pool uses prepareThreshold=0 unless the URL sets it" : "");
    }
    warnPrepareThreshold(given, seen);
    return true;
  }

  /** What a probe saw, and the setting it probed, as the log lines name it. */
  private record Probe(String where, TransactionPooler.Seen seen) {}

  /** Probes {@code TASKQ_DATABASE_URL} when TaskQ opens its own pool; empty when there is none. */
  private static Optional<Probe> probeOwnPool(TaskQConfig config) {
    if (config.databaseUrl().isEmpty()) {
      return Optional.empty();
    }
    JdbcTarget pooled = OwnedPool.pooledTarget(config);
    String where = "TASKQ_DATABASE_URL (" + TransactionPooler.where(pooled) + ")";
    try {
      return Optional.of(
          new Probe(where, TransactionPooler.probe(() -> physical(pooled, config), Runnable::run)));
    } catch (SQLException e) {
      throw UnreachableDatabase.of(pooled.url(), e);
    }
  }

  /** Probes the application's DataSource; empty when it cannot lend two connections or fails. */
  private static Optional<Probe> probeGiven(DataSource given) {
    if (!canLendTwo(given)) {
      LOG.debug("the application's pool has no two idle connections; no transaction-pooler probe");
      return Optional.empty();
    }
    try {
      return Optional.of(
          new Probe(
              "the application's DataSource",
              TransactionPooler.probe(given::getConnection, Runnable::run)));
    } catch (SQLException e) {
      LOG.debug("could not probe the application's DataSource for a transaction pooler", e);
      return Optional.empty();
    }
  }

  private static String found(String where, TransactionPooler.Seen seen) {
    return where
        + " reaches PostgreSQL through a transaction-pooling proxy (such as PgBouncer with"
        + " pool_mode=transaction): server backend "
        + seen.sharedPid().getAsLong()
        + " served two of its sessions, so a session does not keep its server connection"
        + " from one transaction to the next.";
  }

  /**
   * Behind a pooler with no direct URL: refuses a process that needs a session of its own, lets one
   * that needs none go on with a WARN.
   */
  private static void goOnWithoutSession(
      String found, @Nullable DataSource given, boolean needsSession) {
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
  }

  /** Refuses a {@code TASKQ_DATABASE_DIRECT_URL} that goes through a pooler itself. */
  private static void refusePooledDirect(JdbcTarget directTarget, TaskQConfig config) {
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
