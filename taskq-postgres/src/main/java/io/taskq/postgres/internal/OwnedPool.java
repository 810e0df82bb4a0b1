package io.taskq.postgres.internal;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.pool.HikariPool;
import io.taskq.TaskQConfig;
import io.taskq.postgres.internal.dispatch.ListenConnectionSource;
import io.taskq.postgres.internal.startup.UnreachableDatabase;
import java.util.Properties;

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
    String url = config.databaseUrl().orElseThrow(OwnedPool::noUrl);
    HikariConfig hikari = new HikariConfig();
    hikari.setJdbcUrl(url);
    hikari.setPoolName("taskq-" + config.schemaName().value());
    hikari.setMaximumPoolSize(config.databasePoolSize());
    hikari.setMinimumIdle(Math.min(2, config.databasePoolSize()));
    hikari.setKeepaliveTime(config.databaseKeepaliveTime().toMillis());
    hikari.setDataSourceProperties(driverProperties(config));
    try {
      return new HikariDataSource(hikari);
    } catch (HikariPool.PoolInitializationException e) {
      throw UnreachableDatabase.of(url, e);
    }
  }

  /** Where the wake listener connects: the direct URL when set, else the database URL. */
  public static ListenConnectionSource listenSource(TaskQConfig config) {
    String url =
        config
            .databaseDirectUrl()
            .orElseGet(() -> config.databaseUrl().orElseThrow(OwnedPool::noUrl));
    return ListenConnectionSource.direct(url, driverProperties(config));
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
