package io.taskq.postgres.internal.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.taskq.SchemaName;
import io.taskq.core.internal.SweepBatchSizer;
import io.taskq.postgres.internal.maintenance.SweepCatalog;
import io.taskq.postgres.testing.RecordingListener;
import io.taskq.postgres.testing.StatementCounter;
import io.taskq.postgres.testing.SweepRows;
import io.taskq.testing.ForwardingDataSource;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@TaskQTest
@Tag("B1")
class BatchExecutorTest {
  private static final Duration TIMEOUT = Duration.ofMillis(1750);

  private SweepRows rows;
  private DataSource dataSource;
  private SchemaName schema;
  private BatchExecutor executor;

  @BeforeEach
  void setUp(TestServices services) {
    rows = SweepRows.migrated(services);
    rows.clear();
    rows.worker("w-live", Duration.ZERO);
    dataSource = services.dataSource();
    schema = SchemaName.of(services.schema());
    executor = new BatchExecutor(schema);
  }

  private List<String> statementsOfOneBatch(SweepBatch sweep, int batchSize) throws SQLException {
    StatementCounter counter = new StatementCounter(dataSource);
    executor.runInOwnTransaction(counter, sweep, batchSize, TIMEOUT, BatchFence.NONE);
    return counter.executed();
  }

  @Test
  @Tag("S1")
  void reclaim_runsTheSameStatements_forAOneRowAndAHundredRowBatch() throws SQLException {
    LeaseReclaimSweep sweep =
        new LeaseReclaimSweep(
            schema, Duration.ofSeconds(60), Duration.ofHours(1), new RecordingListener());
    rows.jobs(1).insert();
    List<String> one = statementsOfOneBatch(sweep, 100);
    rows.jobs(100).insert();
    List<String> hundred = statementsOfOneBatch(sweep, 100);

    assertThat(rows.count("status = 'pending'")).isEqualTo(101);
    assertThat(rows.attempts()).isEqualTo(101);
    assertThat(rows.events()).isEqualTo(101);
    // timeout capture+apply, the sweep's one statement (the commit ends the bounds).
    assertThat(one).hasSize(2).isEqualTo(hundred);
  }

  @Test
  @Tag("S2")
  void deadline_runsTheSameStatements_forAOneRowAndAHundredRowBatch() throws SQLException {
    StatementSweep sweep = SweepCatalog.SWEEP_DEADLINE_EXCEEDED.batch(schema);
    rows.jobs(1).status("pending").deadlineIn(Duration.ofSeconds(-1)).insert();
    List<String> one = statementsOfOneBatch(sweep, 100);
    rows.jobs(100).status("pending").deadlineIn(Duration.ofSeconds(-1)).insert();
    List<String> hundred = statementsOfOneBatch(sweep, 100);

    assertThat(rows.count("status = 'failed'")).isEqualTo(101);
    assertThat(rows.events()).isEqualTo(101);
    assertThat(one).hasSize(2).isEqualTo(hundred);
  }

  @Test
  @Tag("S3")
  void promotion_runsTheSameStatements_forAOneRowAndAHundredRowBatch() throws SQLException {
    StatementSweep sweep = SweepCatalog.SCHEDULED_TO_PENDING.batch(schema);
    rows.jobs(1).status("scheduled").runIn(Duration.ofSeconds(-1)).insert();
    List<String> one = statementsOfOneBatch(sweep, 100);
    rows.jobs(100).status("scheduled").runIn(Duration.ofSeconds(-1)).insert();
    List<String> hundred = statementsOfOneBatch(sweep, 100);

    assertThat(rows.count("status = 'pending'")).isEqualTo(101);
    assertThat(one).hasSize(2).isEqualTo(hundred);
  }

  /** Reports the statement_timeout it runs under, and optionally fails after writing a row. */
  private final class TimeoutProbe implements SweepBatch {
    final AtomicReference<String> seen = new AtomicReference<>();
    private final boolean fail;

    TimeoutProbe(boolean fail) {
      this.fail = fail;
    }

    @Override
    public String sweepName() {
      return "timeout_probe";
    }

    @Override
    public int run(Connection tx, int batchSize) throws SQLException {
      seen.set(show(tx));
      try (Statement s = tx.createStatement()) {
        s.executeUpdate(rows.sql("UPDATE {schema}.jobs SET status = 'failed'"));
        if (fail) {
          s.execute("SELECT 1 / 0");
        }
      }
      return 1;
    }
  }

  private static String show(Connection c) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT current_setting('statement_timeout')");
        ResultSet rs = ps.executeQuery()) {
      rs.next();
      return rs.getString(1);
    }
  }

  @Test
  @Tag("B3")
  void aBatchNestedInACallersTransaction_leavesTheCallersStatementTimeoutUnchanged()
      throws SQLException {
    rows.jobs(1).status("pending").insert();
    TimeoutProbe probe = new TimeoutProbe(false);
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      try (Statement s = c.createStatement()) {
        s.execute("SET LOCAL statement_timeout = '12345ms'");
      }

      executor.runNested(c, probe, 10, TIMEOUT, BatchFence.NONE);

      assertThat(probe.seen.get()).isEqualTo("1750ms");
      assertThat(show(c)).isEqualTo("12345ms");
      c.commit();
    }
    assertThat(rows.count("status = 'failed'")).isEqualTo(1);
  }

  @Test
  @Tag("B3")
  @Tag("B5")
  void aFailingNestedBatch_rollsBackToItsSavepoint_andTheCallerCarriesOn() throws SQLException {
    rows.jobs(1).status("pending").insert();
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      try (Statement s = c.createStatement()) {
        s.execute("SET LOCAL statement_timeout = '12345ms'");
      }

      assertThatThrownBy(
              () -> executor.runNested(c, new TimeoutProbe(true), 10, TIMEOUT, BatchFence.NONE))
          .isInstanceOf(SQLException.class)
          .extracting(e -> ((SQLException) e).getSQLState())
          .isEqualTo("22012");

      assertThat(show(c)).isEqualTo("12345ms");
      c.commit();
    }
    assertThat(rows.count("status = 'pending'")).isEqualTo(1);
  }

  @Test
  @Tag("B3")
  void aBatchInItsOwnTransaction_leavesNoTimeoutOnThePooledSession() throws SQLException {
    rows.jobs(1).status("pending").insert();
    try (Connection c = dataSource.getConnection()) {
      String before = show(c);
      DataSource same = new StatementCounter(new OneConnection(c));

      executor.runInOwnTransaction(same, new TimeoutProbe(false), 10, TIMEOUT, BatchFence.NONE);

      assertThat(show(c)).isEqualTo(before).isNotEqualTo("1750ms");
      assertThat(c.getAutoCommit()).isTrue();
    }
  }

  @Test
  void aNestedBatch_refusesAConnectionInAutoCommitMode() throws SQLException {
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(true);
      assertThatThrownBy(
              () -> executor.runNested(c, new TimeoutProbe(false), 10, TIMEOUT, BatchFence.NONE))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("auto-commit");
    }
  }

  @Test
  void aZeroTimeout_isRefused_becauseItWouldDisableTheBound() {
    assertThatThrownBy(
            () ->
                executor.runInOwnTransaction(
                    dataSource, new TimeoutProbe(false), 10, Duration.ZERO, BatchFence.NONE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("statement timeout")
        .hasMessageContaining("PT0S");
  }

  @Test
  @Tag("B2")
  @Tag("B5")
  void aBatchOverItsTimeout_isAbortedBy57014_andCommitsNothing() {
    rows.jobs(1).status("pending").insert();
    SweepBatch slow =
        new SweepBatch() {
          @Override
          public String sweepName() {
            return "slow";
          }

          @Override
          public int run(Connection tx, int batchSize) throws SQLException {
            try (Statement s = tx.createStatement()) {
              s.executeUpdate(rows.sql("UPDATE {schema}.jobs SET status = 'failed'"));
              s.execute("SELECT pg_sleep(5)");
            }
            return 1;
          }
        };

    assertThatThrownBy(
            () ->
                executor.runInOwnTransaction(
                    dataSource, slow, 10, Duration.ofMillis(200), BatchFence.NONE))
        .isInstanceOf(SQLException.class)
        .matches(SweepBatchSizer::isAbort, "is an aborted batch (57014)");
    assertThat(rows.count("status = 'pending'")).isEqualTo(1);
  }

  @Test
  @Tag("B2")
  @Tag("R7")
  void aBatchWhoseClientStopsBetweenItsStatements_isEndedByTheServer_andCommitsNothing() {
    rows.jobs(1).status("pending").insert();
    SweepBatch stalled =
        new SweepBatch() {
          @Override
          public String sweepName() {
            return "stalled";
          }

          @Override
          public int run(Connection tx, int batchSize) throws SQLException {
            try (Statement s = tx.createStatement()) {
              s.executeUpdate(rows.sql("UPDATE {schema}.jobs SET status = 'failed'"));
            }
            // A frozen JVM: the transaction sits idle, holding its locks, past the batch's bound.
            sleep(Duration.ofMillis(1500));
            try (Statement s = tx.createStatement()) {
              s.execute("SELECT 1");
            }
            return 1;
          }
        };

    assertThatThrownBy(
            () ->
                executor.runInOwnTransaction(
                    dataSource, stalled, 10, Duration.ofMillis(300), BatchFence.NONE))
        .as("the server ends a batch left idle past its timeout")
        .isInstanceOf(SQLException.class);
    assertThat(rows.count("status = 'pending'")).isEqualTo(1);
  }

  @Test
  @Tag("B2")
  @Tag("R7")
  void aBatchWhoseClientStopsBeforeItsCommit_isEndedByTheServer_andCommitsNothing() {
    rows.jobs(1).status("pending").insert();
    SweepBatch failAll =
        new SweepBatch() {
          @Override
          public String sweepName() {
            return "fail_all";
          }

          @Override
          public int run(Connection tx, int batchSize) throws SQLException {
            try (Statement s = tx.createStatement()) {
              return s.executeUpdate(rows.sql("UPDATE {schema}.jobs SET status = 'failed'"));
            }
          }
        };

    // A JVM frozen after the batch's last statement, before its COMMIT reaches the server.
    DataSource freezesBeforeCommit = new FreezesBeforeCommit(dataSource, Duration.ofMillis(1500));
    assertThatThrownBy(
            () ->
                executor.runInOwnTransaction(
                    freezesBeforeCommit, failAll, 10, Duration.ofMillis(300), BatchFence.NONE))
        .as("the server ends a batch left idle before its commit past its timeout")
        .isInstanceOf(SQLException.class);
    assertThat(rows.count("status = 'pending'")).isEqualTo(1);
  }

  /** Connections whose {@code commit()} first sleeps, as a frozen client would. */
  private static final class FreezesBeforeCommit extends ForwardingDataSource {
    private final Duration pause;

    FreezesBeforeCommit(DataSource target, Duration pause) {
      super(target);
      this.pause = pause;
    }

    @Override
    public Connection getConnection() throws SQLException {
      Connection connection = target.getConnection();
      return (Connection)
          Proxy.newProxyInstance(
              Connection.class.getClassLoader(),
              new Class<?>[] {Connection.class},
              (proxy, method, args) -> {
                if (method.getName().equals("commit")) {
                  sleep(pause);
                }
                try {
                  return method.invoke(connection, args);
                } catch (InvocationTargetException e) {
                  throw e.getCause();
                }
              });
    }
  }

  @Test
  @Tag("B3")
  void aBatchNestedInACallersTransaction_leavesTheCallersIdleBoundUnchanged() throws SQLException {
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      try (Statement s = c.createStatement()) {
        s.execute("SET LOCAL idle_in_transaction_session_timeout = '54321ms'");
      }

      executor.runNested(c, new TimeoutProbe(false), 10, TIMEOUT, BatchFence.NONE);

      try (Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SHOW idle_in_transaction_session_timeout")) {
        rs.next();
        assertThat(rs.getString(1)).isEqualTo("54321ms");
      }
      c.commit();
    }
  }

  private static void sleep(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Test
  void aRefusingFence_stopsTheBatchBeforeItsStatements() {
    rows.jobs(1).status("pending").insert();
    BatchFence refuse =
        tx -> {
          throw FenceRefusedException.leadershipLost("not the leader");
        };

    assertThatThrownBy(
            () ->
                executor.runInOwnTransaction(
                    dataSource, new TimeoutProbe(false), 10, TIMEOUT, refuse))
        .isInstanceOf(FenceRefusedException.class);
    assertThat(rows.count("status = 'pending'")).isEqualTo(1);
  }
}
