package io.taskq.postgres.internal.leader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.taskq.SchemaName;
import io.taskq.core.internal.AdvisoryLockName;
import io.taskq.postgres.internal.sweep.BatchExecutor;
import io.taskq.postgres.internal.sweep.FenceRefusedException;
import io.taskq.postgres.internal.sweep.SweepBatch;
import io.taskq.postgres.testing.RecordingListener;
import io.taskq.postgres.testing.StatementCounter;
import io.taskq.postgres.testing.SweepRows;
import io.taskq.spi.MaintenanceHealth;
import io.taskq.spi.MaintenanceListener;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

@TaskQTest
@Tag("M1")
@Tag("D8")
class LeaderElectorTest {
  private static final Duration TIMEOUT = Duration.ofMillis(1750);

  private final List<LeaderElector> electors = new ArrayList<>();
  private SweepRows rows;
  private DataSource dataSource;
  private SchemaName schema;
  private AdvisoryLockName lock;
  private LeaderConnectionSource connections;

  @BeforeEach
  void setUp(TestServices services) {
    rows = SweepRows.migrated(services);
    rows.clear();
    dataSource = services.dataSource();
    schema = SchemaName.of(services.schema());
    lock = AdvisoryLockName.of(AdvisoryLockName.Purpose.MAINTENANCE_LEADER, schema);
    connections =
        LeaderConnectionSource.fromUrl(
            services.jdbcUrl(), new Properties(), Duration.ofSeconds(5), Duration.ofSeconds(30));
  }

  @AfterEach
  void closeElectors() {
    electors.forEach(LeaderElector::close);
  }

  private LeaderElector elector(MaintenanceListener listener) {
    return elector(listener, Duration.ofSeconds(10), connections);
  }

  private LeaderElector elector(
      MaintenanceListener listener, Duration barrier, LeaderConnectionSource source) {
    LeaderElector e =
        new LeaderElector(schema, lock, source, Duration.ofSeconds(5), barrier, listener);
    electors.add(e);
    return e;
  }

  private long holders() {
    return rows.one(
        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 1 AND granted"
            + " AND ((classid::bigint << 32) | objid::bigint) = "
            + String.format(AdvisoryLockName.SQL_KEY_EXPRESSION, "?"),
        lock.name());
  }

  private void terminate(Leadership term) {
    rows.db().queryColumn("SELECT pg_terminate_backend(?)", term.backendPid());
  }

  @Test
  @Tag("O6")
  void oneElectorWins_andASecondOnTheSameLock_staysAFollower() {
    RecordingListener first = new RecordingListener();
    RecordingListener second = new RecordingListener();
    LeaderElector a = elector(first);
    LeaderElector b = elector(second);

    Optional<Leadership> won = a.refresh();

    assertThat(won).isPresent();
    assertThat(b.refresh()).isEmpty();
    assertThat(first.signals()).containsExactly("leader true");
    assertThat(second.signals()).isEmpty();
    // The held lock is the documented key of 'taskq:maintenance_leader:{schema}'.
    assertThat(holders()).isEqualTo(1);
    assertThat(
            rows.one(
                "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 1 AND"
                    + " ((classid::bigint << 32) | objid::bigint) = ?",
                lock.key()))
        .isEqualTo(won.get().backendPid());
  }

  /**
   * R7: a follower's campaign asks its guard when it would take the lock, under the elector's lock,
   * not before: a CI run had one maintenance loop resign for a pool outage and the other, which had
   * checked the hold-off before it was armed, take the lock back 9 ms later. SweepLoop arms the
   * hold-off, resigns, and campaigns only through this guard.
   */
  @Test
  @Tag("R7")
  void aFollowersCampaign_asksItsGuardWhenItWouldTakeTheLock_andLeavesAFreeLockWhenTold() {
    RecordingListener signals = new RecordingListener();
    LeaderElector a = elector(signals);
    AtomicBoolean holdingOff = new AtomicBoolean();
    assertThat(a.refresh(() -> !holdingOff.get())).as("the first campaign").isPresent();

    holdingOff.set(true);
    assertThat(a.refresh(() -> !holdingOff.get())).as("the leader, proving its lock").isPresent();
    assertThat(a.resign("the sweeps' pool gave nothing")).isTrue();
    assertThat(a.refresh(() -> !holdingOff.get())).as("a campaign while holding off").isEmpty();
    // The resigned session's backend lets the lock go as it exits, a moment after the close.
    await("the lock free, not taken back")
        .atMost(Duration.ofSeconds(5))
        .until(() -> holders() == 0);
    assertThat(a.current()).as("the elector's term while holding off").isEmpty();

    holdingOff.set(false);
    assertThat(a.refresh(() -> !holdingOff.get())).as("once the hold-off is over").isPresent();
    assertThat(holders()).as("holders after the campaign").isEqualTo(1);
    // The new term is announced after the handover wait, not at once.
    assertThat(signals.signals()).containsExactly("leader true", "leader false");
  }

  @Test
  @Tag("R7")
  void theLockSession_isEndedByTheServerWhenIdlePastTheLimit_soAFrozenLeaderCannotKeepTheLock(
      TestServices services) throws SQLException {
    PGSimpleDataSource direct = new PGSimpleDataSource();
    direct.setUrl(services.jdbcUrl());
    List<Connection> opened = new ArrayList<>();
    LeaderElector a =
        elector(
            MaintenanceListener.NONE,
            Duration.ofSeconds(10),
            () -> {
              Connection c = direct.getConnection();
              opened.add(c);
              return c;
            });

    assertThat(a.refresh()).isPresent();

    // Five proof validities of the 1 s check interval.
    assertThat(a.idleSessionLimit()).isEqualTo(Duration.ofSeconds(15));
    assertThat(opened).hasSize(1);
    assertThat(show(opened.get(0), "idle_session_timeout")).isEqualTo("15s");
  }

  @Test
  @Tag("R7")
  void aBorrowedLockConnection_goesBackToThePoolWithoutTheIdleLimit(TestServices services)
      throws SQLException {
    com.zaxxer.hikari.HikariConfig config = new com.zaxxer.hikari.HikariConfig();
    config.setJdbcUrl(services.jdbcUrl());
    config.setMaximumPoolSize(1);
    try (com.zaxxer.hikari.HikariDataSource pool = new com.zaxxer.hikari.HikariDataSource(config)) {
      LeaderElector a =
          elector(
              MaintenanceListener.NONE,
              Duration.ofSeconds(10),
              LeaderConnectionSource.borrowed(pool));
      assertThat(a.refresh()).isPresent();
      a.close();

      try (Connection c = pool.getConnection()) {
        assertThat(show(c, "idle_session_timeout")).isEqualTo("0");
      }
    }
  }

  private static String show(Connection c, String setting) throws SQLException {
    try (Statement s = c.createStatement();
        java.sql.ResultSet rs = s.executeQuery("SHOW " + setting)) {
      rs.next();
      return rs.getString(1);
    }
  }

  @Test
  void aLeader_provesItsLockOnEveryRefresh_butNeverAcquiresItTwice(TestServices services) {
    PGSimpleDataSource direct = new PGSimpleDataSource();
    direct.setUrl(services.jdbcUrl());
    StatementCounter counter = new StatementCounter(direct);
    LeaderElector a =
        elector(MaintenanceListener.NONE, Duration.ofSeconds(10), counter::getConnection);

    for (int i = 0; i < 5; i++) {
      assertThat(a.refresh()).isPresent();
    }

    assertThat(counter.executed().stream().filter(sql -> sql.contains("pg_try_advisory_lock")))
        .hasSize(1);
    assertThat(counter.executed().stream().filter(sql -> sql.contains("FROM pg_catalog.pg_locks")))
        .hasSize(4);
    a.close();
    assertThat(holders()).isZero();
  }

  @Test
  @Tag("O6")
  @Tag("O7")
  void whenTheLeadersBackendIsTerminated_itStepsDown_clearsItsHealth_andAFollowerTakesOver() {
    MaintenanceHealth health =
        new MaintenanceHealth(Duration.ofSeconds(30), InstantSource.system());
    RecordingListener first = new RecordingListener();
    LeaderElector a = elector(new Both(health, first));
    LeaderElector b = elector(MaintenanceListener.NONE);
    Leadership term = a.refresh().orElseThrow();
    health.sweepSucceeded("reclaim_expired_locks", Instant.now());
    health.sweepBatchSize("reclaim_expired_locks", 25, 100);
    assertThat(health.report().degraded()).isTrue();

    terminate(term);

    await().atMost(Duration.ofSeconds(20)).until(() -> b.refresh().isPresent());
    assertThat(a.refresh()).isEmpty();
    assertThat(first.signals()).containsExactly("leader true", "leader false");
    assertThat(health.report().degraded()).isFalse();
    assertThat(health.report().reasons()).containsExactly(MaintenanceHealth.NO_SWEEP_YET);
    assertThat(holders()).isEqualTo(1);
  }

  @Test
  void aStaleLeader_cannotRunABatch_besideTheNewOne() throws SQLException {
    rows.jobs(1).status("pending").insert();
    LeaderElector a = elector(MaintenanceListener.NONE);
    LeaderElector b = elector(MaintenanceListener.NONE);
    LeaderFence staleFence = new LeaderFence(schema, a.refresh().orElseThrow());
    terminate(staleFence.leadership());
    await().atMost(Duration.ofSeconds(20)).until(() -> b.refresh().isPresent());
    LeaderFence newFence = new LeaderFence(schema, b.current().orElseThrow());
    BatchExecutor executor = new BatchExecutor(schema);

    // The old leader has not noticed yet (no refresh): its fence still refuses its batch.
    assertThatThrownBy(
            () -> executor.runInOwnTransaction(dataSource, failAll(), 10, TIMEOUT, staleFence))
        .isInstanceOfSatisfying(
            FenceRefusedException.class, e -> assertThat(e.isLeadershipLost()).isTrue());
    assertThat(rows.count("status = 'pending'")).isEqualTo(1);

    assertThat(executor.runInOwnTransaction(dataSource, failAll(), 10, TIMEOUT, newFence))
        .isEqualTo(1);
    assertThat(rows.count("status = 'failed'")).isEqualTo(1);
  }

  @Test
  void aNewLeader_waitsForTheOldLeadersBatchInFlight_beforeItLeads() throws Exception {
    rows.jobs(1).status("pending").insert();
    LeaderElector a = elector(MaintenanceListener.NONE);
    LeaderElector b = elector(MaintenanceListener.NONE);
    LeaderFence oldFence = new LeaderFence(schema, a.refresh().orElseThrow());
    CountDownLatch inside = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    CompletableFuture<Integer> oldBatch =
        CompletableFuture.supplyAsync(() -> runQuietly(oldFence, blockingFailAll(inside, release)));
    assertThat(inside.await(20, TimeUnit.SECONDS)).isTrue();

    terminate(oldFence.leadership());
    await().atMost(Duration.ofSeconds(20)).until(() -> holders() == 0);
    CompletableFuture<Optional<Leadership>> takeover = CompletableFuture.supplyAsync(b::refresh);

    // The new leader won the lock but waits at the barrier while the old batch holds the fence.
    await().atMost(Duration.ofSeconds(20)).until(() -> barrierWaiters() == 1);
    assertThat(takeover).isNotDone();

    release.countDown();
    assertThat(oldBatch.get(20, TimeUnit.SECONDS)).isEqualTo(1);
    assertThat(takeover.get(20, TimeUnit.SECONDS)).isPresent();
    assertThat(rows.count("status = 'failed'")).isEqualTo(1);
  }

  @Test
  void aBarrierThatTimesOut_givesTheLockBack_andTheNextTryTakesIt() throws Exception {
    LeaderElector a = elector(MaintenanceListener.NONE);
    RecordingListener second = new RecordingListener();
    LeaderElector b = elector(second, Duration.ofMillis(300), connections);
    LeaderFence oldFence = new LeaderFence(schema, a.refresh().orElseThrow());
    CountDownLatch inside = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    CompletableFuture<Integer> oldBatch =
        CompletableFuture.supplyAsync(() -> runQuietly(oldFence, blockingFailAll(inside, release)));
    assertThat(inside.await(20, TimeUnit.SECONDS)).isTrue();
    terminate(oldFence.leadership());
    await().atMost(Duration.ofSeconds(20)).until(() -> holders() == 0);

    assertThat(b.refresh()).isEmpty();
    assertThat(holders()).isZero();
    assertThat(second.signals()).isEmpty();

    release.countDown();
    oldBatch.get(20, TimeUnit.SECONDS);
    assertThat(b.refresh()).isPresent();
    // R6: b took over from a leader (its first try met one): it reports only after the handover
    // wait, once every proof of the previous leader has lapsed; its sweeps may run meanwhile.
    assertThat(b.isProven()).isFalse();
    assertThat(second.signals()).isEmpty();
    await()
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> b.refresh().isPresent() && b.isProven());
    assertThat(second.signals()).containsExactly("leader true");
  }

  @Test
  @Tag("O6")
  void close_releasesTheLock_andSignalsTheDemotion() {
    RecordingListener listener = new RecordingListener();
    LeaderElector a = elector(listener);
    a.refresh();

    a.close();

    assertThat(holders()).isZero();
    assertThat(listener.signals()).containsExactly("leader true", "leader false");
    assertThat(a.refresh()).isEmpty();
  }

  /** Sessions waiting for the fence: the (int4, int4) twin of the leader key, not granted. */
  private long barrierWaiters() {
    return rows.one(
        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 2"
            + " AND NOT granted AND classid::bigint = ? AND objid::bigint = ?",
        lock.key() >>> 32,
        lock.key() & 0xFFFF_FFFFL);
  }

  private int runQuietly(LeaderFence fence, SweepBatch sweep) {
    try {
      return new BatchExecutor(schema)
          .runInOwnTransaction(dataSource, sweep, 10, Duration.ofSeconds(30), fence);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private SweepBatch failAll() {
    return blockingFailAll(new CountDownLatch(1), new CountDownLatch(0));
  }

  /** Fails every pending job; after its UPDATE it reports being inside and waits for release. */
  private SweepBatch blockingFailAll(CountDownLatch inside, CountDownLatch release) {
    return new SweepBatch() {
      @Override
      public String sweepName() {
        return "fail_all";
      }

      @Override
      public int run(Connection tx, int batchSize) throws SQLException {
        int n;
        try (Statement s = tx.createStatement()) {
          n =
              s.executeUpdate(
                  rows.sql("UPDATE {schema}.jobs SET status = 'failed' WHERE status = 'pending'"));
        }
        inside.countDown();
        try {
          if (!release.await(30, TimeUnit.SECONDS)) {
            throw new SQLException("the test never released the batch");
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new SQLException(e);
        }
        return n;
      }
    };
  }

  /** Two listeners. */
  private record Both(MaintenanceListener one, MaintenanceListener two)
      implements MaintenanceListener {
    @Override
    public void leaderChanged(boolean isLeader) {
      one.leaderChanged(isLeader);
      two.leaderChanged(isLeader);
    }
  }
}
