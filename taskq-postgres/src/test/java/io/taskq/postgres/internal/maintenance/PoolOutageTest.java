package io.taskq.postgres.internal.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.taskq.SchemaName;
import io.taskq.core.internal.AdvisoryLockName;
import io.taskq.postgres.internal.leader.LeaderConnectionSource;
import io.taskq.postgres.internal.sweep.SweepBatch;
import io.taskq.postgres.internal.sweep.SweepSpec;
import io.taskq.postgres.testing.RecordingListener;
import io.taskq.postgres.testing.SweepRows;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * R7, R2: a maintenance leader whose sweeps get no connection from their pool (a pooler in front of
 * it refuses connections) while its lock session on the direct URL is healthy gives up the lock
 * once the outage has lasted the lock session's idle limit, so a process that reaches the database
 * leads; it holds off campaigning until its pool answers again. A sweep's own statement error is no
 * outage. Real PostgreSQL for the locks and the healthy pool; the broken pool is a real HikariCP
 * pool (or PgJDBC) pointed at a closed port.
 */
@TaskQTest
@Tag("R7")
@Tag("R2")
@Tag("M1")
@Tag("R6")
class PoolOutageTest {
  /** A check interval of 100 ms: proof validity 300 ms, so the idle limit is its 10 s floor. */
  private static final MaintenanceSettings FAST =
      MaintenanceSettings.builder()
          .sweepInterval(Duration.ofMillis(200))
          .scheduledTick(Duration.ofMillis(100))
          .build();

  private static final Duration LIMIT = Duration.ofSeconds(10);

  private final List<AutoCloseable> opened = new ArrayList<>();
  private TestServices services;
  private SchemaName schema;

  @BeforeEach
  void setUp(TestServices services) {
    this.services = services;
    SweepRows rows = SweepRows.migrated(services);
    rows.clear();
    schema = SchemaName.of(services.schema());
  }

  @AfterEach
  void closeAll() throws Exception {
    for (int i = opened.size() - 1; i >= 0; i--) {
      opened.get(i).close();
    }
  }

  @Test
  void aLeaderWhosePoolGivesNoConnection_givesUpTheLockWithinTheLimit_andAnotherLeads() {
    RecordingListener cutOff = new RecordingListener();
    Maintenance broken = started(closedPortPool(), cutOff);
    await().atMost(Duration.ofSeconds(10)).until(broken::isLeader);
    Maintenance healthy = started(services.dataSource(), new RecordingListener());
    long since = System.nanoTime();

    await("the healthy process leads after the cut-off leader gave up the lock")
        .atMost(LIMIT.plusSeconds(5))
        .pollInterval(Duration.ofMillis(50))
        .until(healthy::isLeader);

    Duration took = Duration.ofNanos(System.nanoTime() - since);
    assertThat(broken.isLeader()).as("the cut-off leader after giving up").isFalse();
    assertThat(cutOff.signals("leader")).containsExactly("leader true", "leader false");
    assertThat(leaderLocksHeld()).isEqualTo(1);
    assertThat(broken.lastFailure())
        .isInstanceOfSatisfying(
            SweepFailedException.class, e -> assertThat(e.isNoConnection()).isTrue());
    assertThat(took).as("time to the new leader").isLessThan(LIMIT.plusSeconds(5));
  }

  @Test
  void afterGivingUp_itHoldsOffCampaigning_untilItsPoolAnswersAgain() {
    SwitchablePool pool = new SwitchablePool(services.dataSource());
    pool.down.set(true);
    Maintenance cutOff = started(pool, new RecordingListener());
    await().atMost(Duration.ofSeconds(10)).until(cutOff::isLeader);
    Maintenance healthy = started(services.dataSource(), new RecordingListener());
    await("the healthy process leads").atMost(LIMIT.plusSeconds(5)).until(healthy::isLeader);

    // The lock is free, but the cut-off process's pool still gives nothing: it does not lead.
    healthy.close();
    await("the cut-off process holds off while its pool gives nothing")
        .during(Duration.ofSeconds(2))
        .atMost(Duration.ofSeconds(4))
        .until(() -> !cutOff.isLeader() && leaderLocksHeld() == 0);

    pool.down.set(false);
    await("the process leads again once its pool answers")
        .atMost(Duration.ofSeconds(5))
        .until(cutOff::isLeader);
  }

  @Test
  void aSweepWhoseOwnStatementFails_isNoOutage_theLeaderKeepsTheLock() {
    SweepBatch failing =
        new SweepBatch() {
          @Override
          public String sweepName() {
            return "always_fails";
          }

          @Override
          public int run(Connection tx, int batchSize) throws SQLException {
            try (PreparedStatement ps = tx.prepareStatement("SELECT * FROM no_such_table")) {
              ps.executeQuery().close();
            }
            return 0;
          }
        };
    Maintenance leader =
        track(
            Maintenance.builder(services.dataSource(), schema, lockConnections())
                .settings(FAST)
                .withoutStandardSweeps()
                .sweep(SweepSpec.oneBatchPerTick(failing, 10))
                .build());
    leader.start();
    await().atMost(Duration.ofSeconds(10)).until(leader::isLeader);
    Maintenance follower = started(services.dataSource(), new RecordingListener());

    await("the leader keeps the lock through its sweep's own errors")
        .during(LIMIT.plusSeconds(2))
        .atMost(LIMIT.plusSeconds(5))
        .until(() -> leader.isLeader() && !follower.isLeader());
    assertThat(leader.lastFailure())
        .isInstanceOfSatisfying(
            SweepFailedException.class, e -> assertThat(e.isNoConnection()).isFalse());
  }

  private Maintenance started(DataSource pool, RecordingListener listener) {
    Maintenance m =
        track(
            Maintenance.builder(pool, schema, lockConnections())
                .settings(FAST)
                .listener(listener)
                .build());
    m.start();
    return m;
  }

  private Maintenance track(Maintenance m) {
    opened.add(m);
    return m;
  }

  /** The lock session goes straight to PostgreSQL, like TASKQ_DATABASE_DIRECT_URL. */
  private LeaderConnectionSource lockConnections() {
    return LeaderConnectionSource.fromUrl(
        services.jdbcUrl(), new Properties(), Duration.ofSeconds(5), Duration.ofSeconds(30));
  }

  /** TaskQ's kind of pool, pointed at a port nobody listens on: every borrow is refused. */
  private HikariDataSource closedPortPool() {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(closedPortUrl());
    config.setConnectionTimeout(250);
    config.setInitializationFailTimeout(-1);
    config.setMaximumPoolSize(2);
    HikariDataSource pool = new HikariDataSource(config);
    opened.add(pool);
    return pool;
  }

  private static String closedPortUrl() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return "jdbc:postgresql://127.0.0.1:" + socket.getLocalPort() + "/none?connectTimeout=2";
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private long leaderLocksHeld() {
    AdvisoryLockName lock =
        AdvisoryLockName.of(AdvisoryLockName.Purpose.MAINTENANCE_LEADER, schema);
    return SweepRows.migrated(services)
        .one(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 1 AND"
                + " granted AND ((classid::bigint << 32) | objid::bigint) = ?",
            lock.key());
  }

  /**
   * The healthy pool, or, while {@link #down}, the refusal PgJDBC gives on a closed port (a pooler
   * that stopped listening).
   */
  private static final class SwitchablePool implements DataSource {
    private final DataSource pool;
    private final String closedPort = closedPortUrl();
    final AtomicBoolean down = new AtomicBoolean();

    SwitchablePool(DataSource pool) {
      this.pool = pool;
    }

    @Override
    public Connection getConnection() throws SQLException {
      return down.get() ? DriverManager.getConnection(closedPort) : pool.getConnection();
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
      throw new SQLFeatureNotSupportedException();
    }

    @Override
    public PrintWriter getLogWriter() {
      return null;
    }

    @Override
    public void setLogWriter(PrintWriter out) {}

    @Override
    public void setLoginTimeout(int seconds) {}

    @Override
    public int getLoginTimeout() {
      return 0;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
      throw new SQLFeatureNotSupportedException();
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
      throw new SQLException("not a wrapper");
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
      return false;
    }
  }
}
