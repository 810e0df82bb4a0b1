package io.taskq.postgres.internal.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.SchemaName;
import io.taskq.core.internal.NotifyChannels;
import io.taskq.postgres.internal.maintenance.SweepCatalog;
import io.taskq.postgres.testing.SweepRows;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

@TaskQTest
@Tag("S3")
class ScheduledPromotionSweepTest {
  private SweepRows rows;
  private DataSource dataSource;
  private SchemaName schema;
  private StatementSweep sweep;
  private BatchExecutor executor;

  @BeforeEach
  void setUp(TestServices services) {
    rows = SweepRows.migrated(services);
    rows.clear();
    dataSource = services.dataSource();
    schema = SchemaName.of(services.schema());
    sweep = SweepCatalog.SCHEDULED_TO_PENDING.batch(schema);
    executor = new BatchExecutor(schema);
  }

  private int batch(int size) throws SQLException {
    return executor.runInOwnTransaction(
        dataSource, sweep, size, Duration.ofMillis(1750), BatchFence.NONE);
  }

  @Test
  void dueScheduledJobs_becomePending_withoutAnyEventRow_andLaterOnesWait() throws SQLException {
    rows.jobs(3).status("scheduled").runIn(Duration.ofSeconds(-1)).insert();
    long later = rows.jobs(1).status("scheduled").runIn(Duration.ofHours(1)).insert().get(0);

    assertThat(batch(100)).isEqualTo(3);

    assertThat(rows.count("status = 'pending'")).isEqualTo(3);
    assertThat(rows.status(later)).isEqualTo("scheduled");
    assertThat(rows.events()).isZero();
    assertThat(rows.attempts()).isZero();
  }

  @Test
  void oneBatch_promotesAtMostTheBatchSize_earliestFirst() throws SQLException {
    long first = rows.jobs(1).status("scheduled").runIn(Duration.ofMinutes(-10)).insert().get(0);
    rows.jobs(4).status("scheduled").runIn(Duration.ofSeconds(-1)).insert();

    assertThat(batch(2)).isEqualTo(2);

    assertThat(rows.status(first)).isEqualTo("pending");
    assertThat(rows.count("status = 'scheduled'")).isEqualTo(3);
  }

  @Test
  @Tag("M2")
  void aPromotion_firesExactlyOneWakeNotify(TestServices services) throws SQLException {
    String channel = NotifyChannels.of(schema).wake().name();
    try (Connection listen = DriverManager.getConnection(services.jdbcUrl());
        Statement s = listen.createStatement()) {
      s.execute("LISTEN " + channel);
      PGConnection pg = listen.unwrap(PGConnection.class);
      rows.jobs(5).status("scheduled").runIn(Duration.ofSeconds(-1)).insert();

      batch(100);

      PGNotification[] first = pg.getNotifications(5_000);
      PGNotification[] more = pg.getNotifications(200);
      assertThat(first).extracting(PGNotification::getName).containsExactly(channel);
      assertThat(more == null ? 0 : more.length).isZero();

      assertThat(batch(100)).isZero();
      PGNotification[] none = pg.getNotifications(200);
      assertThat(none == null ? 0 : none.length).isZero();
    }
  }
}
