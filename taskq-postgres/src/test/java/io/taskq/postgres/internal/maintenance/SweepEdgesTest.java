package io.taskq.postgres.internal.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.SchemaName;
import io.taskq.core.internal.SweepBatchSizer;
import io.taskq.postgres.internal.leader.LeaderConnectionSource;
import io.taskq.postgres.internal.sweep.LeaseReclaimSweep;
import io.taskq.postgres.testing.RecordingListener;
import io.taskq.postgres.testing.SweepRows;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Two properties of real sweeps that a unit test of their parts cannot show: a committed batch
 * resets the breaker's count of aborted batches (T2), and the reclaim snap steps over rows another
 * transaction holds instead of waiting for them (U2).
 */
@TaskQTest
class SweepEdgesTest {
  private static final String S1 = LeaseReclaimSweep.NAME;

  private final List<Maintenance> started = new ArrayList<>();
  private TestServices services;
  private SweepRows rows;
  private RecordingListener listener;

  @BeforeEach
  void setUp(TestServices services) {
    this.services = services;
    rows = SweepRows.migrated(services);
    rows.clear();
    rows.worker("w-live", Duration.ZERO);
    listener = new RecordingListener();
  }

  @AfterEach
  void closeAll() {
    started.forEach(Maintenance::close);
  }

  private Maintenance maintenance(Duration statementTimeout) {
    Maintenance m =
        Maintenance.builder(
                services.dataSource(),
                SchemaName.of(services.schema()),
                LeaderConnectionSource.fromUrl(
                    services.jdbcUrl(),
                    new Properties(),
                    Duration.ofSeconds(5),
                    Duration.ofSeconds(30)))
            .settings(
                MaintenanceSettings.builder()
                    .eventWriterBatchSize(8)
                    .sweepDrainBatches(8)
                    .retryBackoff(Duration.ofMillis(10))
                    .eventWriterStatementTimeout(statementTimeout)
                    .build())
            .listener(listener)
            .sleeper(d -> Thread.sleep(d.toMillis()))
            .build();
    started.add(m);
    return m;
  }

  /** Holds the rows {@code whereOnTable} selects (FOR UPDATE) in an open transaction. */
  private Connection lock(String table, String where) throws SQLException {
    Connection c = services.dataSource().getConnection();
    c.setAutoCommit(false);
    try (Statement s = c.createStatement()) {
      s.executeQuery(
              rows.sql("SELECT * FROM {schema}." + table + " WHERE " + where + " FOR UPDATE"))
          .close();
    }
    return c;
  }

  @Test
  @Tag("T2")
  void aCommittedBatchBetweenAborts_resetsTheBreaker_soTheTierStaysFull() throws SQLException {
    Maintenance m = maintenance(Duration.ofMillis(300));
    SweepBatchSizer breaker = m.breaker(S1);
    rows.worker("w-locked", Duration.ZERO);
    rows.jobs(3).owner("w-locked").insert();

    // Two batches aborted by the server's statement_timeout (the attempt rows' foreign key waits on
    // the locked worker row): one short of the threshold of 3.
    try (Connection holder = lock("workers", "id = 'w-locked'")) {
      m.sweepTick();
      m.sweepTick();
      holder.rollback();
    }
    assertThat(listener.signals("timeout " + S1)).hasSize(2);
    assertThat(breaker.consecutiveAborts()).isEqualTo(2);

    // A real batch commits: the count starts over.
    m.sweepTick();
    assertThat(rows.count("status = 'pending'")).isEqualTo(3);
    assertThat(listener.signals("success " + S1)).isNotEmpty();
    assertThat(breaker.consecutiveAborts()).isZero();

    // Two more aborts: four in the window, but never three in a row, so the tier stays full.
    rows.jobs(3).owner("w-locked").insert();
    try (Connection holder = lock("workers", "id = 'w-locked'")) {
      m.sweepTick();
      m.sweepTick();
      holder.rollback();
    }
    assertThat(listener.signals("timeout " + S1)).hasSize(4);
    assertThat(breaker.consecutiveAborts()).isEqualTo(2);
    assertThat(breaker.isLatched()).isFalse();
    assertThat(breaker.currentBatchSize()).isEqualTo(8);
    listener.clear();

    m.sweepTick();

    assertThat(listener.signals("batch_size " + S1)).first().isEqualTo("batch_size " + S1 + " 8/8");
    assertThat(m.health().report().reasons()).noneMatch(r -> r.contains("reduced tier"));
  }

  @Test
  @Tag("U2")
  void theReclaimSnap_stepsOverRowsAnotherTransactionHolds_insteadOfWaiting() throws SQLException {
    Duration statementTimeout = Duration.ofSeconds(3);
    Maintenance m = maintenance(statementTimeout);
    // The lease arm: jobs of a live worker whose lease passed.
    List<Long> expired = rows.jobs(4).leaseIn(Duration.ofMinutes(-1)).insert();
    // The heartbeat arm: jobs of an owner with no workers row, their lease still running.
    List<Long> orphaned = rows.jobs(4).owner("w-gone").leaseIn(Duration.ofMinutes(10)).insert();

    try (Connection holder =
        lock("jobs", "id IN (" + expired.get(0) + ", " + orphaned.get(0) + ")")) {
      long started = System.nanoTime();
      m.sweepTick();
      Duration took = Duration.ofNanos(System.nanoTime() - started);

      // Waiting on either held row would have run into the statement timeout and rolled back.
      assertThat(took).isLessThan(statementTimeout.dividedBy(2));
      assertThat(listener.signals("timeout " + S1)).isEmpty();
      assertThat(rows.count("status = 'pending'")).isEqualTo(6);
      assertThat(rows.status(expired.get(0))).isEqualTo("running");
      assertThat(rows.status(orphaned.get(0))).isEqualTo("running");
      holder.rollback();
    }

    m.sweepTick();

    assertThat(rows.count("status = 'pending'")).isEqualTo(8);
  }
}
