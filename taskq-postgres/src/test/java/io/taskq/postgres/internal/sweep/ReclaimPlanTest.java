package io.taskq.postgres.internal.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.SchemaName;
import io.taskq.postgres.internal.NamedStatements;
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
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * S1 reads only its own batch: on an expired-lock backlog much larger than a batch, {@code EXPLAIN
 * ANALYZE} of one {@code reclaim_expired_locks} call (rolled back) shows every access to {@code
 * jobs} going through an index and no node reading more than a few batches' worth of rows, so the
 * cost of a batch does not grow with the backlog (docs/architecture.md, "Which query uses which
 * index").
 */
@TaskQTest
@Tag("S1")
@Tag("B1")
class ReclaimPlanTest {
  private static final int BACKLOG = 20_000;
  private static final int BATCH = 100;

  private static SweepRows rows;
  private static DataSource ds;
  private static String sql;

  @BeforeAll
  static void fill(TestServices services) {
    rows = SweepRows.migrated(services);
    rows.clear();
    ds = services.dataSource();
    sql =
        NamedStatements.load("io/taskq/postgres/sql/reclaim.sql", SchemaName.of(services.schema()))
            .get(LeaseReclaimSweep.NAME);
    // A live worker whose leases all expired (the lease arm), and a lost one (the heartbeat arm).
    rows.worker("w-live", Duration.ZERO);
    rows.worker("w-lost", Duration.ofHours(2));
    rows.jobs(BACKLOG).owner("w-live").leaseIn(Duration.ofMinutes(-1)).insert();
    rows.jobs(BACKLOG / 4).owner("w-lost").leaseIn(Duration.ofMinutes(5)).insert();
    rows.jobs(BACKLOG).status("pending").insert();
    rows.db().execute(rows.sql("VACUUM ANALYZE {schema}.jobs"));
  }

  @Test
  void oneBatch_readsJobsThroughIndexes_andOnlyAFewBatchesOfRows() throws SQLException {
    String plan = explainAnalyze(Duration.ofMinutes(1));

    assertThat(plan)
        .contains("jobs_running_idx")
        .contains("jobs_pkey")
        .doesNotContain("Seq Scan on jobs");
    assertThat(maxRowsOfAnyNode(plan)).isLessThanOrEqualTo(3 * BATCH);
    assertThat(plan).contains("Update on jobs");
  }

  @Test
  void withNoLostOwner_theHeartbeatArm_readsNoJob() throws SQLException {
    // Stale after 3 hours: neither worker is lost, so the arm must not touch the backlog at all.
    String plan = explainAnalyze(Duration.ofHours(3));

    assertThat(plan).doesNotContain("Seq Scan on jobs");
    assertThat(maxRowsOfAnyNode(plan)).isLessThanOrEqualTo(2 * BATCH);
  }

  private static String explainAnalyze(Duration staleAfter) throws SQLException {
    List<String> lines = new ArrayList<>();
    try (Connection c = ds.getConnection()) {
      c.setAutoCommit(false);
      try (PreparedStatement ps =
          c.prepareStatement("EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) " + sql)) {
        ps.setInt(1, BATCH);
        ps.setLong(2, staleAfter.toMillis());
        ps.setLong(3, Duration.ofHours(1).toMillis());
        ps.setString(4, "reclaim_plan_test");
        ps.setString(5, "reclaim_plan_test_events");
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            lines.add(rs.getString(1));
          }
        }
      } finally {
        c.rollback();
        c.setAutoCommit(true);
      }
    }
    return String.join("\n", lines);
  }

  /** The largest {@code rows=} of any plan node times its {@code loops=}. */
  private static long maxRowsOfAnyNode(String plan) {
    long max = 0;
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("rows=(\\d+) loops=(\\d+)").matcher(plan);
    while (m.find()) {
      max = Math.max(max, Long.parseLong(m.group(1)) * Long.parseLong(m.group(2)));
    }
    return max;
  }
}
