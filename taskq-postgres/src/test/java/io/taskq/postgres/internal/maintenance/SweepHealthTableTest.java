package io.taskq.postgres.internal.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.SchemaName;
import io.taskq.postgres.internal.leader.LeaderConnectionSource;
import io.taskq.postgres.internal.sweep.LeaseReclaimSweep;
import io.taskq.postgres.testing.SweepRows;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The leader writes each sweep's health to {@code sweep_health} (V012) after each loop tick: the
 * row another process reads (A8, W1), driven tick by tick on the test thread.
 */
@TaskQTest
@Tag("A8")
@Tag("W1")
class SweepHealthTableTest {
  private static final String S1 = LeaseReclaimSweep.NAME;
  private static final String S3 = SweepCatalog.SCHEDULED_TO_PENDING.sweepName();

  private TestServices services;
  private MaintenanceFaults faults;
  private Maintenance maintenance;

  @BeforeEach
  void setUp(TestServices services) throws SQLException {
    this.services = services;
    SweepRows rows = SweepRows.migrated(services);
    rows.clear();
    faults = MaintenanceFaults.disarmed();
    try (Connection c = services.dataSource().getConnection()) {
      c.createStatement().execute("DELETE FROM \"" + services.schema() + "\".sweep_health");
    }
    maintenance =
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
                    .eventWriterBatchSize(50)
                    .sweepInterval(Duration.ofSeconds(7))
                    .retryAttempts(2)
                    .retryBackoff(Duration.ofMillis(5))
                    .build())
            .faults(faults)
            .everySweep()
            .build();
  }

  @AfterEach
  void close() {
    maintenance.close();
  }

  private Map<String, Object> row(String sweep) throws SQLException {
    try (Connection c = services.dataSource().getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT * FROM \"" + services.schema() + "\".sweep_health WHERE sweep_name = ?")) {
      ps.setString(1, sweep);
      try (ResultSet rs = ps.executeQuery()) {
        Map<String, Object> out = new LinkedHashMap<>();
        if (rs.next()) {
          for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
            out.put(rs.getMetaData().getColumnName(i), rs.getObject(i));
          }
        }
        return out;
      }
    }
  }

  private long rows() throws SQLException {
    try (Connection c = services.dataSource().getConnection();
        ResultSet rs =
            c.createStatement()
                .executeQuery("SELECT count(*) FROM \"" + services.schema() + "\".sweep_health")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  @Test
  void aSweepTick_writesOneRowPerIntervalSweep_andTheSecondTickItsOwn() throws SQLException {
    maintenance.sweepTick();

    // S1, S2, S4-S9 and the two S11 sweeps: the sweep loop's ten; S3 is the 1-second loop's.
    assertThat(rows()).isEqualTo(SweepCatalog.values().length - 1);
    assertThat(row(S3)).isEmpty();
    Map<String, Object> s1 = row(S1);
    assertThat(s1)
        .containsEntry("sweep_id", "S1")
        .containsEntry("breaker_tier", "full")
        .containsEntry("batch_size", 50)
        .containsEntry("batch_size_configured", 50)
        .containsEntry("consecutive_failures", 0)
        .containsEntry("stalled", false)
        .containsEntry("loop_period_ms", 7000L)
        .containsEntry("expected_period_ms", 7000L);
    assertThat(s1.get("last_success_at")).isNotNull();
    assertThat(s1.get("last_error_at")).isNull();
    assertThat((String) s1.get("leader")).endsWith(":" + ProcessHandle.current().pid());
    assertThat(row("prune")).containsEntry("breaker_tier", "fixed");

    maintenance.secondTick();

    assertThat(row(S3))
        .containsEntry("sweep_id", "S3")
        .containsEntry("loop_period_ms", 1000L)
        .containsEntry("expected_period_ms", 1000L);
  }

  @Test
  void aFailedRun_isCountedWithItsErrorClassAndFirstLine_andASuccessResetsTheCount()
      throws SQLException {
    faults.arm(2); // both attempts of S1's first batch fail: the run fails for good

    maintenance.sweepTick();

    Map<String, Object> failed = row(S1);
    assertThat(failed)
        .containsEntry("consecutive_failures", 1)
        .containsEntry("last_error_class", "SQLTransientConnectionException 08006");
    assertThat((String) failed.get("last_error_message"))
        .startsWith("fault seam: fabricated transient connection failure")
        .doesNotContain("\n");
    assertThat(failed.get("last_success_at")).isNull();
    assertThat(failed.get("last_error_at")).isNotNull();

    maintenance.sweepTick();

    Map<String, Object> healed = row(S1);
    assertThat(healed).containsEntry("consecutive_failures", 0);
    assertThat(healed.get("last_success_at")).isNotNull();
    assertThat(healed.get("last_error_class")).as("the last error stays readable").isNotNull();
  }

  @Test
  void errorTextIsBounded_toItsFirstLine() {
    SQLException e =
        new SQLException("first line " + "x".repeat(400) + "\n  Detail: secret row", "57014");
    assertThat(SweepHealthTable.errorMessage(e))
        .hasSize(SweepHealthTable.MAX_ERROR_MESSAGE)
        .doesNotContain("secret");
    assertThat(SweepHealthTable.errorClass(new SweepFailedException(S1, 1, false, e)))
        .isEqualTo("SQLException 57014");
  }
}
