package io.taskq.postgres.internal;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.pool.HikariPool;
import io.taskq.TaskQConfig;
import io.taskq.postgres.internal.dispatch.ListenConnectionSource;
import io.taskq.postgres.internal.startup.UnreachableDatabase;
import java.util.Optional;
import java.util.Properties;
import javax.sql.DataSource;

/**
 * The HikariCP pool TaskQ builds from {@code TASKQ_DATABASE_*} settings when the application hands
 * it no {@code DataSource}, with the timeouts of D10: PgJDBC {@code connectTimeout}, {@code
 * socketTimeout} (above every statement timeout) and {@code tcpKeepAlive}, and Hikari's {@code
 * keepaliveTime}, so no TaskQ thread can block forever on a frozen server or a dead peer.
 */
public final class OwnedPool {
  private OwnedPool() {}

  /**
   * Opens the pool.
   *
   * @throws IllegalArgumentException when {@code TASKQ_DATABASE_URL} is not set
   * @throws IllegalStateException naming {@code TASKQ_DATABASE_URL} when its database does not
   *     answer or refuses the login (P3)
   */
  public static HikariDataSource open(TaskQConfig config) {
    return open(config, false);
  }

  /**
   * Opens the pool; with {@code behindPooler} or a direct URL set, its connections use {@code
   * prepareThreshold=0} unless {@code TASKQ_DATABASE_URL} sets {@code prepareThreshold} itself (R2:
   * named server-side prepared statements do not survive a transaction pooler before PgBouncer
   * 1.21).
   *
   * @throws IllegalArgumentException when {@code TASKQ_DATABASE_URL} is not set
   * @throws IllegalStateException naming {@code TASKQ_DATABASE_URL} when its database does not
   *     answer or refuses the login (P3)
   */
  public static HikariDataSource open(TaskQConfig config, boolean behindPooler) {
    JdbcTarget target = pooledTarget(config);
    String url = target.url();
    HikariConfig hikari = new HikariConfig();
    hikari.setJdbcUrl(url);
    hikari.setPoolName("taskq-" + config.schemaName().value());
    hikari.setMaximumPoolSize(config.databasePoolSize());
    hikari.setMinimumIdle(Math.min(2, config.databasePoolSize()));
    hikari.setKeepaliveTime(config.databaseKeepaliveTime().toMillis());
    Properties props = target.over(driverProperties(config));
    // A direct URL is only set to get around a pooler, and the probe can miss a pooler other
    // clients are busy on (R2, found by the fault suite): no named statements then either.
    if ((behindPooler || directTarget(config).isPresent()) && !setsPrepareThreshold(url)) {
      props.setProperty("prepareThreshold", "0");
    }
    hikari.setDataSourceProperties(props);
    try {
      return new HikariDataSource(hikari);
    } catch (HikariPool.PoolInitializationException e) {
      throw UnreachableDatabase.of(url, e);
    }
  }

  /** Where the wake listener connects: the direct URL when set, else the database URL. */
  public static ListenConnectionSource listenSource(TaskQConfig config) {
    JdbcTarget target = directTarget(config).orElseGet(() -> pooledTarget(config));
    return ListenConnectionSource.direct(target.url(), target.over(driverProperties(config)));
  }

  /** {@code TASKQ_DATABASE_URL} split for the driver (user-info out of the URL, R3). */
  public static JdbcTarget pooledTarget(TaskQConfig config) {
    return JdbcTarget.of(config.databaseUrl().orElseThrow(OwnedPool::noUrl), "TASKQ_DATABASE_URL");
  }

  /** {@code TASKQ_DATABASE_DIRECT_URL} split for the driver, when set. */
  public static Optional<JdbcTarget> directTarget(TaskQConfig config) {
    return config.databaseDirectUrl().map(url -> JdbcTarget.of(url, "TASKQ_DATABASE_DIRECT_URL"));
  }

  /**
   * Connections on {@code TASKQ_DATABASE_DIRECT_URL}, outside any pool, for what needs a session of
   * its own beyond the leader and the listeners: the migrations (their session advisory lock, R2).
   * Each {@code getConnection()} opens a physical connection; the caller closes it.
   */
  public static Optional<DataSource> directDataSource(TaskQConfig config, String applicationName) {
    return directTarget(config)
        .map(
            target -> {
              Properties props = target.over(driverProperties(config));
              props.setProperty("ApplicationName", applicationName);
              return new DriverDataSource(target.url(), props);
            });
  }

  /** Whether {@code url} sets {@code prepareThreshold} among its parameters. */
  static boolean setsPrepareThreshold(String url) {
    int query = url.indexOf('?');
    if (query < 0) {
      return false;
    }
    for (String param : url.substring(query + 1).split("&", -1)) {
      if (param.toLowerCase(java.util.Locale.ROOT).startsWith("preparethreshold=")) {
        return true;
      }
    }
    return false;
  }

  /** User, password, the D10 timeouts and the application name as PgJDBC properties. */
  public static Properties driverProperties(TaskQConfig config) {
    Properties props = new Properties();
    config.databaseUser().ifPresent(user -> props.setProperty("user", user));
    config.databasePassword().ifPresent(password -> props.setProperty("password", password));
    props.setProperty("connectTimeout", Long.toString(config.connectTimeout().toSeconds()));
    props.setProperty("socketTimeout", Long.toString(config.socketTimeout().toSeconds()));
    props.setProperty("tcpKeepAlive", "true");
    // Lets an operator tell the deployments apart in pg_stat_activity (cut to 63 bytes by the
    // server).
    props.setProperty("ApplicationName", "taskq:" + config.schemaName().value());
    return props;
  }

  private static IllegalArgumentException noUrl() {
    return new IllegalArgumentException(
        "TASKQ_DATABASE_URL is not set: set it (jdbc:postgresql://host:5432/db), or build TaskQ"
            + " from the application's DataSource with TaskQ.builder(dataSource)");
  }
}
