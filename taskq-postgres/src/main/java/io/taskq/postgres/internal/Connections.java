package io.taskq.postgres.internal;

import com.zaxxer.hikari.HikariDataSource;
import io.taskq.TaskQConfig;
import io.taskq.postgres.internal.dispatch.ListenConnectionSource;
import io.taskq.postgres.internal.leader.LeaderConnectionSource;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * Where a TaskQ root's connections come from (D8): the application's {@link DataSource}, or the
 * pool the root opens from {@code TASKQ_DATABASE_URL} on first use; and the connections held for
 * good, the wake listener's and the maintenance leader's, which go to {@code
 * TASKQ_DATABASE_DIRECT_URL} when it is set (a transaction-pooling proxy breaks LISTEN and session
 * locks). Internal: only {@code TaskQ} holds one.
 */
public final class Connections {
  private final TaskQConfig config;
  private final @Nullable DataSource given;
  private @Nullable HikariDataSource ownedPool;
  private boolean behindPooler;

  /** Connections from {@code given}, or from a pool of {@code config}'s when it is null. */
  public Connections(TaskQConfig config, @Nullable DataSource given) {
    this.config = config;
    this.given = given;
  }

  /** The application's data source, or the pool opened on the first call. */
  public synchronized DataSource dataSource() {
    if (given != null) {
      return given;
    }
    HikariDataSource pool = ownedPool;
    if (pool == null) {
      pool = OwnedPool.open(config, behindPooler);
      ownedPool = pool;
    }
    return pool;
  }

  /** {@return the application's data source, or null when the root opens a pool of its own} */
  public @Nullable DataSource given() {
    return given;
  }

  /**
   * R2: a transaction pooler was found at start, so the pool opened here uses {@code
   * prepareThreshold=0} ({@link OwnedPool#open(TaskQConfig, boolean)}); set before the first {@link
   * #dataSource()}.
   */
  public synchronized void behindPooler(boolean found) {
    this.behindPooler = found;
  }

  /** Where the wake listener connects: a direct connection unless only a DataSource was given. */
  public ListenConnectionSource listenSource(DataSource dataSource) {
    if (ownsConnections()) {
      return OwnedPool.listenSource(config);
    }
    return ListenConnectionSource.borrowed(dataSource);
  }

  /** The leader's own connection, outside any pool unless only a DataSource was given. */
  public LeaderConnectionSource leaderSource(DataSource dataSource) {
    if (ownsConnections()) {
      return LeaderConnectionSource.fromConfig(config).orElseThrow();
    }
    return LeaderConnectionSource.borrowed(dataSource);
  }

  /** Forgets the pool opened here and hands it to the caller to close; null when none was. */
  public synchronized @Nullable HikariDataSource releasePool() {
    HikariDataSource pool = ownedPool;
    ownedPool = null;
    return pool;
  }

  private boolean ownsConnections() {
    return given == null || config.databaseDirectUrl().isPresent();
  }
}
