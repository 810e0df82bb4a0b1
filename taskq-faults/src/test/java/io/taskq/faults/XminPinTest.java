package io.taskq.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * R7, fault "a long transaction pinning xmin": a session of the test opens a repeatable-read
 * transaction, takes its snapshot and stays open (as a forgotten report query or a stuck migration
 * would) while two worker JVMs drain 2 000 jobs. No dead row version the workers leave behind can
 * be vacuumed meanwhile (the claim and the completion each leave one), so the claim ({@code FOR
 * UPDATE SKIP LOCKED}, L4) scans past them; jobs keep flowing, none is lost or run twice. Once the
 * transaction ends, a plain {@code VACUUM} removes them. Figures: the drain time with the pin
 * against the same drain without it, and the dead versions left.
 */
@Tag("R7")
@Tag("L4")
class XminPinTest {
  private static final int JOBS = 2000;

  @Test
  void aSnapshotHeldOpenForMinutesWorth_slowsNothingIntoLossAndVacuumCatchesUpOnRelease()
      throws Exception {
    try (FaultCluster cluster = FaultCluster.start("xmin-pin", "autovacuum=off")) {
      cluster.worker("a");
      cluster.worker("b");
      List<Long> all = new ArrayList<>();
      List<Long> baseline = cluster.enqueue(JOBS, 0);
      all.addAll(baseline);
      Duration unpinned = cluster.awaitDrained(baseline, Duration.ofMinutes(3));
      vacuum(cluster);

      long pinnedAt;
      long deadWhilePinned;
      Duration pinnedDrain;
      try (Connection pin = cluster.connect()) {
        pin.setAutoCommit(false);
        pin.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
        try (Statement st = pin.createStatement();
            ResultSet rs = st.executeQuery("SELECT count(*) FROM taskq.jobs")) {
          rs.next();
        }
        pinnedAt = System.nanoTime();
        assertThat(
                cluster.count(
                    "SELECT count(*) FROM pg_stat_activity WHERE backend_xmin IS NOT NULL"
                        + " AND application_name = 'faults-harness' AND state = 'idle in"
                        + " transaction'"))
            .as("the pinning session holds a snapshot")
            .isEqualTo(1);
        List<Long> pinned = cluster.enqueue(JOBS, 0);
        all.addAll(pinned);
        pinnedDrain = cluster.awaitDrained(pinned, Duration.ofMinutes(4));
        vacuum(cluster);
        deadWhilePinned = deadVersions(cluster);
        pin.rollback();
      }
      long heldMillis = (System.nanoTime() - pinnedAt) / 1_000_000;
      vacuum(cluster);
      long deadAfter = deadVersions(cluster);
      List<Long> after = cluster.enqueue(500, 0);
      all.addAll(after);
      cluster.awaitDrained(after, Duration.ofMinutes(1));

      cluster.assertInvariants();
      FaultCluster.Figures f = cluster.figures(all);
      FaultCluster.report(
          f.line(
              "long transaction pinning xmin",
              String.format(
                  "snapshot held %d ms; %d jobs drained in %d ms pinned vs %d ms unpinned; dead"
                      + " row versions of jobs VACUUM could not remove: %d pinned, %d after the"
                      + " release",
                  heldMillis,
                  JOBS,
                  pinnedDrain.toMillis(),
                  unpinned.toMillis(),
                  deadWhilePinned,
                  deadAfter)));
      assertThat(f.lost()).as("jobs lost").isZero();
      assertThat(f.duplicated()).as("jobs run twice").isZero();
      // The fault was real: the pin kept the drained jobs' old versions alive...
      assertThat(deadWhilePinned).as("dead versions VACUUM had to keep").isGreaterThan(JOBS);
      // ...and nothing of TaskQ's own pins it: after the release VACUUM removes them.
      assertThat(deadAfter).as("dead versions left after the release").isLessThan(JOBS / 10);
    }
  }

  private static void vacuum(FaultCluster cluster) throws Exception {
    try (Connection c = cluster.connect();
        Statement st = c.createStatement()) {
      st.execute("VACUUM taskq.jobs");
    }
  }

  /** Dead row versions of the jobs table the last VACUUM left (could not remove). */
  private static long deadVersions(FaultCluster cluster) {
    return cluster.count(
        "SELECT n_dead_tup FROM pg_stat_user_tables WHERE schemaname = 'taskq'"
            + " AND relname = 'jobs'");
  }
}
