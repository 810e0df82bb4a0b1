package io.taskq.postgres.internal.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.SchemaName;
import io.taskq.postgres.internal.maintenance.SweepCatalog;
import io.taskq.postgres.testing.SweepRows;
import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.sql.SQLException;
import java.time.Duration;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@TaskQTest
@Tag("S2")
class DeadlineSweepTest {
  private SweepRows rows;
  private DataSource dataSource;
  private StatementSweep sweep;
  private BatchExecutor executor;

  @BeforeEach
  void setUp(TestServices services) {
    rows = SweepRows.migrated(services);
    rows.clear();
    rows.worker("w-live", Duration.ZERO);
    dataSource = services.dataSource();
    SchemaName schema = SchemaName.of(services.schema());
    sweep = SweepCatalog.SWEEP_DEADLINE_EXCEEDED.batch(schema);
    executor = new BatchExecutor(schema);
  }

  private int batch(int size) throws SQLException {
    return executor.runInOwnTransaction(
        dataSource, sweep, size, Duration.ofMillis(1750), BatchFence.NONE);
  }

  @Test
  void overdueJobs_inEveryLiveStatus_failWithDeadlineExceeded_withOneAttemptAndOneEventEach()
      throws SQLException {
    long scheduled =
        rows.jobs(1)
            .status("scheduled")
            .attempt(0)
            .runIn(Duration.ofHours(1))
            .deadlineIn(Duration.ofSeconds(-1))
            .insert()
            .get(0);
    long pending =
        rows.jobs(1)
            .status("pending")
            .attempt(1)
            .deadlineIn(Duration.ofSeconds(-1))
            .insert()
            .get(0);
    long running =
        rows.jobs(1)
            .attempt(2)
            .leaseIn(Duration.ofHours(1))
            .deadlineIn(Duration.ofSeconds(-1))
            .insert()
            .get(0);

    assertThat(batch(100)).isEqualTo(3);

    for (long id : new long[] {scheduled, pending, running}) {
      assertThat(rows.status(id)).isEqualTo("failed");
    }
    assertThat(rows.count("error_class = 'DeadlineExceeded' AND finished_at IS NOT NULL"))
        .isEqualTo(3);
    assertThat(rows.count("locked_by IS NOT NULL OR lock_expires_at IS NOT NULL")).isZero();
    // The running attempt is the one that ended; a waiting job's next attempt never starts.
    assertThat(
            rows.column(
                "SELECT job_id || ':' || attempt || ':' || coalesce(worker_id, '-') || ':' ||"
                    + " outcome FROM {schema}.job_attempts ORDER BY job_id"))
        .containsExactly(
            scheduled + ":1:-:deadline_exceeded",
            pending + ":2:-:deadline_exceeded",
            running + ":2:w-live:deadline_exceeded");
    assertThat(
            rows.column(
                "SELECT kind || ' ' || disposition || ' ' || error_class FROM {schema}.job_events"))
        .containsOnly("deadline_exceeded failed DeadlineExceeded")
        .hasSize(3);
  }

  @Test
  void jobsBeforeTheirDeadline_andTerminalJobs_areLeftAlone() throws SQLException {
    long early = rows.jobs(1).status("pending").deadlineIn(Duration.ofHours(1)).insert().get(0);
    long done = rows.jobs(1).status("succeeded").deadlineIn(Duration.ofHours(-1)).insert().get(0);
    long none = rows.jobs(1).status("pending").insert().get(0);

    assertThat(batch(100)).isZero();

    assertThat(rows.status(early)).isEqualTo("pending");
    assertThat(rows.status(done)).isEqualTo("succeeded");
    assertThat(rows.status(none)).isEqualTo("pending");
    assertThat(rows.attempts()).isZero();
    assertThat(rows.events()).isZero();
  }

  @Test
  void oneCall_failsAtMostTheBatchSize() throws SQLException {
    rows.jobs(7).status("pending").deadlineIn(Duration.ofSeconds(-1)).insert();

    assertThat(batch(5)).isEqualTo(5);
    assertThat(batch(5)).isEqualTo(2);
    assertThat(batch(5)).isZero();

    assertThat(rows.attempts()).isEqualTo(7);
    assertThat(rows.events()).isEqualTo(7);
  }

  @Test
  @Tag("B4")
  void aBatch_writesDistinctOccurredAtValues_inEventIdOrder() throws SQLException {
    rows.jobs(50).status("pending").deadlineIn(Duration.ofSeconds(-1)).insert();

    batch(100);

    assertThat(
            rows.one(
                "SELECT count(*) FROM (SELECT occurred_at, lag(occurred_at) OVER (ORDER BY"
                    + " event_id) AS before FROM {schema}.job_events) t"
                    + " WHERE before IS NULL OR occurred_at > before"))
        .isEqualTo(50);
  }
}
