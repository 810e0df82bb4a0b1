package io.taskq.postgres.internal.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.SchemaName;
import io.taskq.core.internal.SweepBatchSizer;
import io.taskq.postgres.internal.leader.LeaderConnectionSource;
import io.taskq.postgres.internal.sweep.LeaseReclaimSweep;
import io.taskq.postgres.testing.RecordingListener;
import io.taskq.postgres.testing.SweepRows;
import io.taskq.spi.MaintenanceHealth;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The sweep loop (S14) and the 1-second loop driven tick by tick on the test thread. */
@TaskQTest
@Tag("S14")
class MaintenanceLoopTest {
  private static final String S1 = LeaseReclaimSweep.NAME;
  private static final String S2 = SweepCatalog.SWEEP_DEADLINE_EXCEEDED.sweepName();
  private static final String S3 = SweepCatalog.SCHEDULED_TO_PENDING.sweepName();

  private final List<Maintenance> started = new ArrayList<>();
  private final List<Duration> slept = Collections.synchronizedList(new ArrayList<>());
  private TestServices services;
  private SweepRows rows;
  private RecordingListener listener;
  private MaintenanceFaults faults;

  @BeforeEach
  void setUp(TestServices services) {
    this.services = services;
    rows = SweepRows.migrated(services);
    rows.clear();
    rows.worker("w-live", Duration.ZERO);
    listener = new RecordingListener();
    faults = MaintenanceFaults.disarmed();
  }

  @AfterEach
  void closeAll() {
    started.forEach(Maintenance::close);
  }

  private Maintenance maintenance(MaintenanceSettingsBuilder settings) {
    Maintenance m =
        Maintenance.builder(
                services.dataSource(),
                SchemaName.of(services.schema()),
                LeaderConnectionSource.fromUrl(
                    services.jdbcUrl(),
                    new Properties(),
                    Duration.ofSeconds(5),
                    Duration.ofSeconds(30)))
            .settings(settings.build())
            .listener(listener)
            .faults(faults)
            .sleeper(
                d -> {
                  slept.add(d);
                  Thread.sleep(d.toMillis());
                })
            .build();
    started.add(m);
    return m;
  }

  private static MaintenanceSettingsBuilder settings(int batchSize, int drainBatches) {
    return MaintenanceSettings.builder()
        .eventWriterBatchSize(batchSize)
        .sweepDrainBatches(drainBatches)
        .retryBackoff(Duration.ofMillis(10));
  }

  @Test
  void aSweepTick_drainsUpToTheDrainBound_andTheNextTickResumes() {
    Maintenance m = maintenance(settings(5, 3));
    rows.jobs(40).insert();

    m.sweepTick();

    assertThat(m.isLeader()).isTrue();
    assertThat(rows.count("status = 'pending'")).isEqualTo(15);
    assertThat(listener.signals("rows " + S1))
        .containsExactly("rows " + S1 + " 5", "rows " + S1 + " 5", "rows " + S1 + " 5");
    // S2 found nothing: exactly one batch, no drain.
    assertThat(listener.signals("batch_size " + S2)).containsExactly("batch_size " + S2 + " 5/5");
    // S3 belongs to the 1-second loop, not to this one.
    assertThat(listener.signals("batch_size " + S3)).isEmpty();

    m.sweepTick();

    assertThat(rows.count("status = 'pending'")).isEqualTo(30);
  }

  @Test
  void aDrainStops_atTheFirstBatchThatFindsNothing() {
    Maintenance m = maintenance(settings(5, 8));
    rows.jobs(7).insert();

    m.sweepTick();

    assertThat(listener.signals("rows " + S1))
        .containsExactly("rows " + S1 + " 5", "rows " + S1 + " 2", "rows " + S1 + " 0");
    assertThat(rows.count("status = 'pending'")).isEqualTo(7);
  }

  @Test
  @Tag("S3")
  void theOneSecondLoop_promotesExactlyOneBatchPerTick() {
    Maintenance m = maintenance(settings(10, 8));
    rows.jobs(25).status("scheduled").runIn(Duration.ofSeconds(-1)).insert();

    m.sweepTick();
    assertThat(rows.count("status = 'pending'")).isZero();

    m.secondTick();
    assertThat(rows.count("status = 'pending'")).isEqualTo(10);
    m.secondTick();
    m.secondTick();
    assertThat(rows.count("status = 'pending'")).isEqualTo(25);
    assertThat(listener.signals("rows " + S3))
        .containsExactly("rows " + S3 + " 10", "rows " + S3 + " 10", "rows " + S3 + " 5");
    assertThat(rows.events()).isZero();
  }

  /** Holds the row lock of worker {@code id} (FOR UPDATE) in an open transaction. */
  private Connection lockWorker(String id) throws SQLException {
    Connection c = services.dataSource().getConnection();
    c.setAutoCommit(false);
    try (Statement s = c.createStatement()) {
      s.executeQuery(rows.sql("SELECT * FROM {schema}.workers WHERE id = '" + id + "' FOR UPDATE"))
          .close();
    }
    return c;
  }

  @Test
  @Tag("T2")
  @Tag("B2")
  @Tag("O1")
  @Tag("O2")
  @Tag("O4")
  @Tag("O7")
  void
      batchesAbortedByARealTimeout_commitNothing_countAgainstTheBreaker_andThreeLatchTheReducedTier()
          throws SQLException {
    Maintenance m = maintenance(settings(8, 8).eventWriterStatementTimeout(Duration.ofMillis(300)));
    rows.worker("w-locked", Duration.ZERO);
    rows.jobs(10).owner("w-locked").insert();
    SweepBatchSizer breaker = m.breaker(S1);

    try (Connection holder = lockWorker("w-locked")) {
      m.sweepTick();

      // The attempt rows' foreign key waits on the locked worker row until the server's
      // statement_timeout cancels the batch: SQLSTATE 57014, rolled back whole.
      assertThat(rows.count("status = 'running'")).isEqualTo(10);
      assertThat(rows.attempts()).isZero();
      assertThat(rows.events()).isZero();
      assertThat(listener.signals()).contains("timeout " + S1, "duration " + S1 + " aborted");
      assertThat(listener.signals("rows " + S1)).isEmpty();
      assertThat(listener.signals("success " + S1)).isEmpty();
      assertThat(breaker.consecutiveAborts()).isEqualTo(1);
      assertThat(breaker.isLatched()).isFalse();
      // The loop moved on: S2 still ran its batch.
      assertThat(listener.signals("rows " + S2)).containsExactly("rows " + S2 + " 0");

      m.sweepTick();
      m.sweepTick();

      assertThat(listener.signals("timeout " + S1)).hasSize(3);
      assertThat(breaker.isLatched()).isTrue();
      MaintenanceHealth.Report report = m.health().report();
      assertThat(report.degraded()).isTrue();
      assertThat(report.reasons()).anyMatch(r -> r.contains(S1 + " is on the reduced tier"));
      holder.rollback();
    }
    listener.clear();

    m.sweepTick();

    // Reduced tier: max(1, 8 / 4) = 2 per arm, drained up to 8 batches: all 10 reclaimed.
    assertThat(listener.signals("batch_size " + S1)).first().isEqualTo("batch_size " + S1 + " 2/8");
    assertThat(listener.signals("rows " + S1)).startsWith("rows " + S1 + " 2");
    assertThat(rows.count("status = 'pending'")).isEqualTo(10);
    assertThat(breaker.isLatched()).isTrue();
  }

  @Test
  @Tag("B5")
  void aDrainInterruptedMidway_keepsEveryBatchItCommitted_andTheNextTickResumes()
      throws SQLException {
    Maintenance m = maintenance(settings(5, 8).eventWriterStatementTimeout(Duration.ofMillis(300)));
    rows.worker("w-locked", Duration.ZERO);
    rows.jobs(10).leaseIn(Duration.ofMinutes(-2)).insert();
    rows.jobs(10).owner("w-locked").leaseIn(Duration.ofMinutes(-1)).insert();

    try (Connection holder = lockWorker("w-locked")) {
      m.sweepTick();

      assertThat(listener.signals("rows " + S1))
          .containsExactly("rows " + S1 + " 5", "rows " + S1 + " 5");
      assertThat(listener.signals("timeout " + S1)).hasSize(1);
      assertThat(rows.count("status = 'pending'")).isEqualTo(10);
      assertThat(rows.count("status = 'running' AND locked_by = 'w-locked'")).isEqualTo(10);
      assertThat(rows.attempts()).isEqualTo(10);
      assertThat(rows.events()).isEqualTo(10);
      holder.rollback();
    }

    m.sweepTick();

    assertThat(rows.count("status = 'pending'")).isEqualTo(20);
    assertThat(rows.attempts()).isEqualTo(20);
  }

  @Test
  @Tag("Q1")
  @Tag("Q2")
  void aTransientFault_isRetriedAfterABackoff_andTheBatchThenSucceeds() {
    Maintenance m = maintenance(settings(5, 8));
    rows.jobs(3).insert();
    faults.arm(1);

    m.sweepTick();

    assertThat(faults.remaining()).isZero();
    assertThat(slept).hasSize(1);
    assertThat(slept.get(0)).isBetween(Duration.ofMillis(7), Duration.ofMillis(10));
    assertThat(rows.count("status = 'pending'")).isEqualTo(3);
    assertThat(m.lastFailure()).isNull();
  }

  @Test
  @Tag("Q1")
  @Tag("Q2")
  void exhaustedRetries_endInATypedError_theLoopSurvives_andTheNextTickWorks() {
    Maintenance m = maintenance(settings(5, 8).retryAttempts(3));
    rows.jobs(3).insert();
    faults.arm(3);

    m.sweepTick();

    assertThat(faults.remaining()).isZero();
    assertThat(m.lastFailure())
        .isInstanceOfSatisfying(
            SweepFailedException.class,
            e -> {
              assertThat(e.isExhausted()).isTrue();
              assertThat(e.attempts()).isEqualTo(3);
              assertThat(e.sweepName()).isEqualTo(S1);
              assertThat(e.getCause()).hasMessageContaining("fault seam");
              assertThat(((SQLException) e.getCause()).getSQLState())
                  .isEqualTo(MaintenanceFaults.SQL_STATE);
            });
    // Two real backoffs, the second about twice the first.
    assertThat(slept).hasSize(2);
    assertThat(slept.get(1)).isGreaterThan(slept.get(0));
    assertThat(rows.count("status = 'running'")).isEqualTo(3);
    // The loop went on to the next sweep in the same tick.
    assertThat(listener.signals("batch_size " + S2)).hasSize(1);
    assertThat(m.isLeader()).isTrue();

    m.sweepTick();

    assertThat(rows.count("status = 'pending'")).isEqualTo(3);
  }

  @Test
  @Tag("O3")
  @Tag("O7")
  void successStamps_feedTheReadinessView() {
    Maintenance m = maintenance(settings(5, 8));
    assertThat(m.health().report().reasons()).containsExactly(MaintenanceHealth.NO_SWEEP_YET);

    m.sweepTick();
    m.secondTick();

    MaintenanceHealth.Report report = m.health().report();
    assertThat(report.degraded()).isFalse();
    assertThat(report.reasons()).isEmpty();
    assertThat(report.sweeps())
        .extracting(MaintenanceHealth.SweepState::name)
        .containsExactly(S1, S3, S2);
    assertThat(listener.signals()).contains("success " + S1, "success " + S2, "success " + S3);
  }
}
