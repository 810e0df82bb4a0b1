package io.taskq.postgres.internal.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.taskq.SchemaName;
import io.taskq.core.internal.AdvisoryLockName;
import io.taskq.postgres.internal.leader.LeaderConnectionSource;
import io.taskq.postgres.internal.sweep.FenceRefusedException;
import io.taskq.postgres.internal.sweep.LeaseReclaimSweep;
import io.taskq.postgres.internal.sweep.SweepBatch;
import io.taskq.postgres.internal.sweep.SweepSpec;
import io.taskq.postgres.testing.RecordingListener;
import io.taskq.postgres.testing.SweepRows;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Several maintenance components on one schema: running, rolling deploys, lost leadership. */
@TaskQTest
@Tag("M1")
class MaintenanceFleetTest {
  private final List<Maintenance> built = new ArrayList<>();
  private TestServices services;
  private SweepRows rows;
  private SchemaName schema;

  @BeforeEach
  void setUp(TestServices services) {
    this.services = services;
    rows = SweepRows.migrated(services);
    rows.clear();
    rows.worker("w-live", Duration.ZERO);
    schema = SchemaName.of(services.schema());
  }

  @AfterEach
  void closeAll() {
    built.forEach(Maintenance::close);
  }

  private Maintenance.Builder builder() {
    return Maintenance.builder(
        services.dataSource(),
        schema,
        LeaderConnectionSource.fromUrl(
            services.jdbcUrl(), new Properties(), Duration.ofSeconds(5), Duration.ofSeconds(30)));
  }

  private Maintenance build(Maintenance.Builder builder) {
    Maintenance m = builder.build();
    built.add(m);
    return m;
  }

  private long leaderLocksHeld() {
    AdvisoryLockName lock =
        AdvisoryLockName.of(AdvisoryLockName.Purpose.MAINTENANCE_LEADER, schema);
    return rows.one(
        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 1 AND granted"
            + " AND ((classid::bigint << 32) | objid::bigint) = ?",
        lock.key());
  }

  @Test
  @Tag("S14")
  @Tag("O6")
  void started_itLeadsAndSweepsOnItsOwnLoops_andClosed_itLetsGoOfTheLock() {
    RecordingListener listener = new RecordingListener();
    Maintenance m =
        build(
            builder()
                .listener(listener)
                .settings(
                    MaintenanceSettings.builder()
                        .sweepInterval(Duration.ofMillis(200))
                        .scheduledTick(Duration.ofMillis(100))
                        .build()));
    rows.jobs(5).insert();
    rows.jobs(5).status("scheduled").runIn(Duration.ofSeconds(-1)).insert();

    m.start();

    await().atMost(Duration.ofSeconds(20)).until(() -> rows.count("status = 'pending'") == 10);
    assertThat(m.isLeader()).isTrue();
    assertThat(leaderLocksHeld()).isEqualTo(1);

    m.close();

    assertThat(m.isLeader()).isFalse();
    assertThat(leaderLocksHeld()).isZero();
    assertThat(listener.signals("leader")).containsExactly("leader true", "leader false");
  }

  @Test
  void aFollower_keepsTrying_andLeadsOnceTheLeaderCloses() {
    Maintenance leader = build(builder());
    Maintenance follower = build(builder());
    leader.sweepTick();
    follower.sweepTick();
    assertThat(leader.isLeader()).isTrue();
    assertThat(follower.isLeader()).isFalse();

    leader.close();
    follower.sweepTick();

    // R6: a follower that saw the lock held reports only after the handover wait (3 checks).
    await()
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(200))
        .until(
            () -> {
              follower.sweepTick();
              return follower.isLeader();
            });
  }

  @Test
  @Tag("U2")
  void twoLeadersOnDifferentLockNames_neverTransitionARowTwice() throws Exception {
    int jobs = 1_000;
    rows.jobs(jobs).insert();
    MaintenanceSettings settings =
        MaintenanceSettings.builder().eventWriterBatchSize(10).sweepDrainBatches(1_000).build();
    RecordingListener newRelease = new RecordingListener();
    RecordingListener oldRelease = new RecordingListener();
    Maintenance a = build(builder().settings(settings).listener(newRelease));
    // An older release's leader of the same schema holds a differently named lock (guide §5).
    Maintenance b =
        build(
            builder()
                .settings(settings)
                .listener(oldRelease)
                .leaderLock(
                    AdvisoryLockName.of(
                        AdvisoryLockName.Purpose.MAINTENANCE_LEADER,
                        SchemaName.of("old_release"))));
    CyclicBarrier together = new CyclicBarrier(2);
    CompletableFuture<Void> first = CompletableFuture.runAsync(() -> tickTogether(a, together));
    CompletableFuture<Void> second = CompletableFuture.runAsync(() -> tickTogether(b, together));
    first.get(60, TimeUnit.SECONDS);
    second.get(60, TimeUnit.SECONDS);

    assertThat(a.isLeader()).isTrue();
    assertThat(b.isLeader()).isTrue();
    assertThat(rows.count("status = 'pending'")).isEqualTo(jobs);
    assertThat(rows.one("SELECT count(DISTINCT job_id) FROM {schema}.job_attempts"))
        .isEqualTo(jobs);
    assertThat(rows.attempts()).isEqualTo(jobs);
    assertThat(rows.events()).isEqualTo(jobs);
    assertThat(reclaimed(newRelease) + reclaimed(oldRelease)).isEqualTo(jobs);
    assertThat(reclaimed(newRelease)).isPositive();
    assertThat(reclaimed(oldRelease)).isPositive();
  }

  private static void tickTogether(Maintenance m, CyclicBarrier together) {
    try {
      together.await(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    m.sweepTick();
  }

  private static long reclaimed(RecordingListener listener) {
    return listener.signals("rows " + LeaseReclaimSweep.NAME).stream()
        .mapToLong(s -> Long.parseLong(s.substring(s.lastIndexOf(' ') + 1)))
        .sum();
  }

  @Test
  @Tag("D8")
  @Tag("O7")
  void aFenceRefusedMidDrain_stopsTheTick_andTheLeaderStepsDown() throws Exception {
    RecordingListener listener = new RecordingListener();
    AtomicInteger batches = new AtomicInteger();
    Maintenance[] self = new Maintenance[1];
    SweepBatch loseLeadership =
        new SweepBatch() {
          @Override
          public String sweepName() {
            return "lose_leadership";
          }

          @Override
          public int run(Connection tx, int batchSize) throws SQLException {
            if (batches.incrementAndGet() == 1) {
              terminateLeaderSession(tx, self[0].elector().current().orElseThrow().backendPid());
            }
            return 1;
          }
        };
    Maintenance m =
        build(
            builder()
                .withoutStandardSweeps()
                .listener(listener)
                .sweep(SweepSpec.drained(loseLeadership, 10)));
    self[0] = m;

    m.sweepTick();

    assertThat(batches).hasValue(1);
    assertThat(m.lastFailure())
        .isInstanceOfSatisfying(
            FenceRefusedException.class, e -> assertThat(e.isLeadershipLost()).isTrue());
    assertThat(m.isLeader()).isFalse();
    assertThat(listener.signals("leader")).containsExactly("leader true", "leader false");
    assertThat(m.health().report().sweeps()).isEmpty();
  }

  /** Terminates the leader's lock session and waits, inside the batch, until its lock is gone. */
  private static void terminateLeaderSession(Connection tx, int pid) throws SQLException {
    try (PreparedStatement kill = tx.prepareStatement("SELECT pg_terminate_backend(?)")) {
      kill.setInt(1, pid);
      kill.executeQuery().close();
    }
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () -> {
              try (PreparedStatement ps =
                  tx.prepareStatement("SELECT count(*) FROM pg_stat_activity WHERE pid = ?")) {
                ps.setInt(1, pid);
                try (ResultSet rs = ps.executeQuery()) {
                  rs.next();
                  return rs.getLong(1) == 0;
                }
              }
            });
  }
}
