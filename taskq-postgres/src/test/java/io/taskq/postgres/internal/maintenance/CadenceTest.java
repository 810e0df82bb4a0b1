package io.taskq.postgres.internal.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskq.SchemaName;
import io.taskq.core.internal.AdvisoryLockName;
import io.taskq.postgres.internal.leader.LeaderConnectionSource;
import io.taskq.postgres.internal.sweep.Cadence;
import io.taskq.postgres.internal.sweep.SweepBatch;
import io.taskq.postgres.internal.sweep.SweepSpec;
import io.taskq.postgres.testing.RecordingListener;
import io.taskq.postgres.testing.SweepRows;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The cadences other sweeps plug in with: one batch per tick, and daily under an own lock. */
@TaskQTest
@Tag("S14")
class CadenceTest {
  private final List<Maintenance> built = new ArrayList<>();
  private final AtomicReference<Instant> now =
      new AtomicReference<>(Instant.parse("2030-01-01T02:59:00Z"));
  private TestServices services;
  private SweepRows rows;
  private SchemaName schema;
  private RecordingListener listener;

  @BeforeEach
  void setUp(TestServices services) {
    this.services = services;
    rows = SweepRows.migrated(services);
    rows.clear();
    schema = SchemaName.of(services.schema());
    listener = new RecordingListener();
  }

  @AfterEach
  void closeAll() {
    built.forEach(Maintenance::close);
  }

  private Maintenance build(SweepSpec spec) {
    InstantSource clock = now::get;
    Maintenance m =
        Maintenance.builder(
                services.dataSource(),
                schema,
                LeaderConnectionSource.fromUrl(
                    services.jdbcUrl(),
                    new Properties(),
                    Duration.ofSeconds(5),
                    Duration.ofSeconds(30)))
            .withoutStandardSweeps()
            .clock(clock)
            .listener(listener)
            .settings(MaintenanceSettings.builder().sweepDrainBatches(3).build())
            .sweeps(List.of(spec))
            .build();
    built.add(m);
    return m;
  }

  /** Fails up to batchSize pending jobs: a stand-in for a bounded sweep of another issue. */
  private SweepBatch failPending(String name) {
    return new SweepBatch() {
      @Override
      public String sweepName() {
        return name;
      }

      @Override
      public int run(Connection tx, int batchSize) throws SQLException {
        try (PreparedStatement ps =
            tx.prepareStatement(
                rows.sql(
                    "WITH picked AS (SELECT id FROM {schema}.jobs WHERE status = 'pending'"
                        + " ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED)"
                        + " UPDATE {schema}.jobs j SET status = 'failed' FROM picked"
                        + " WHERE j.id = picked.id"))) {
          ps.setInt(1, batchSize);
          return ps.executeUpdate();
        }
      }
    };
  }

  @Test
  void aOneBatchPerTickSweep_isNeverDrained() {
    Maintenance m = build(SweepSpec.oneBatchPerTick(failPending("expired_events_like"), 4));
    rows.jobs(10).status("pending").insert();

    m.sweepTick();
    assertThat(rows.count("status = 'failed'")).isEqualTo(4);
    m.secondTick();
    assertThat(rows.count("status = 'failed'")).isEqualTo(4);
    m.sweepTick();
    assertThat(rows.count("status = 'failed'")).isEqualTo(8);
    assertThat(listener.signals("batch_size")).containsOnly("batch_size expired_events_like 4/4");
  }

  @Test
  void anEverySecondSweep_runsOnTheOneSecondLoopOnly() {
    Maintenance m = build(SweepSpec.everySecond(failPending("cron_like"), 3));
    rows.jobs(10).status("pending").insert();

    m.sweepTick();
    assertThat(rows.count("status = 'failed'")).isZero();
    m.secondTick();
    assertThat(rows.count("status = 'failed'")).isEqualTo(3);
  }

  @Test
  @Tag("S11")
  void aDailySweep_startsAtItsTime_drainsBoundedPerTick_skipsABusyOwnLock_andFinishesForTheDay()
      throws SQLException {
    AdvisoryLockName prune = AdvisoryLockName.of(AdvisoryLockName.Purpose.PRUNE, schema);
    Maintenance m = build(SweepSpec.daily(failPending("prune_like"), 2, LocalTime.of(3, 0), prune));
    rows.jobs(9).status("pending").insert();

    m.sweepTick();
    assertThat(rows.count("status = 'failed'")).as("before 03:00 UTC").isZero();

    now.set(Instant.parse("2030-01-01T03:00:00Z"));
    try (Connection other = services.dataSource().getConnection();
        Statement s = other.createStatement()) {
      s.executeQuery("SELECT pg_advisory_lock(" + prune.key() + ")").close();
      m.sweepTick();
      assertThat(rows.count("status = 'failed'")).as("own lock busy").isZero();
      s.executeQuery("SELECT pg_advisory_unlock(" + prune.key() + ")").close();
    }

    m.sweepTick();
    assertThat(rows.count("status = 'failed'")).as("3 batches of 2").isEqualTo(6);
    m.sweepTick();
    assertThat(rows.count("status = 'failed'")).isEqualTo(9);
    assertThat(m.lastFailure()).isNull();

    rows.jobs(5).status("pending").insert();
    m.sweepTick();
    assertThat(rows.count("status = 'failed'")).as("finished for today").isEqualTo(9);

    now.set(Instant.parse("2030-01-02T03:30:00Z"));
    m.sweepTick();
    assertThat(rows.count("status = 'failed'")).isEqualTo(14);
  }

  @Test
  void twoSweepsWithOneName_areRefused() {
    assertThatThrownBy(
            () ->
                Maintenance.builder(
                        services.dataSource(), schema, () -> services.dataSource().getConnection())
                    .sweep(SweepSpec.drained(failPending("reclaim_expired_locks"), 5))
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("reclaim_expired_locks");
  }

  @Test
  void specs_checkTheirArguments() {
    SweepBatch sweep = failPending("x");
    assertThatThrownBy(() -> SweepSpec.drained(sweep, 0))
        .hasMessageContaining("batchSize")
        .hasMessageContaining("0");
    assertThatThrownBy(() -> SweepSpec.breakerWrapped(sweep, Cadence.DAILY))
        .hasMessageContaining("DAILY");
    assertThatThrownBy(() -> SweepSpec.drained(sweep, 5).withStatementTimeout(Duration.ZERO))
        .hasMessageContaining("statement timeout");
    assertThat(SweepSpec.oneBatchPerTick(sweep, 256).cadence())
        .isEqualTo(Cadence.ONE_BATCH_PER_TICK);
  }
}
