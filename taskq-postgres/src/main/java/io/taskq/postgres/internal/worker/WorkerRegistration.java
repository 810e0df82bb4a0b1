package io.taskq.postgres.internal.worker;

import io.taskq.Actor;
import io.taskq.postgres.internal.NamedStatements;
import io.taskq.postgres.internal.WorkerIdentity;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Collection;
import javax.sql.DataSource;

/**
 * The worker's row in {@code workers} (L10) and its actors' rows in {@code actor_config}: written
 * at start, the worker row removed at close.
 */
final class WorkerRegistration {
  private final DataSource dataSource;
  private final NamedStatements sql;

  WorkerRegistration(DataSource dataSource, NamedStatements sql) {
    this.dataSource = dataSource;
    this.sql = sql;
  }

  void register(WorkerIdentity identity, Collection<Actor<?>> actors) throws SQLException {
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      try {
        registerWorker(c, identity);
        registerActors(c, actors);
        c.commit();
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        throw e;
      } finally {
        c.setAutoCommit(true);
      }
    }
  }

  private void registerWorker(Connection c, WorkerIdentity identity) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(sql.get("register"))) {
      s.setString(1, identity.id());
      s.setString(2, identity.hostname());
      s.setLong(3, identity.pid());
      s.setArray(4, c.createArrayOf("text", identity.queues().toArray()));
      s.setInt(5, identity.concurrency());
      s.executeUpdate();
    }
  }

  private void registerActors(Connection c, Collection<Actor<?>> actors) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(sql.get("register_actors"))) {
      s.setArray(1, c.createArrayOf("text", actors.stream().map(Actor::name).toArray()));
      s.setArray(2, c.createArrayOf("text", actors.stream().map(Actor::queue).toArray()));
      s.executeUpdate();
    }
  }

  /** Removes the worker's row; its attempt rows keep their history with worker_id NULL. */
  void deregister(String workerId) throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement s = c.prepareStatement(sql.get("deregister"))) {
      c.setAutoCommit(true);
      s.setString(1, workerId);
      s.executeUpdate();
    }
  }
}
