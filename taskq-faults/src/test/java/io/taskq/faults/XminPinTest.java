package io.taskq.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * R7, fault "a long transaction pinning xmin": a session of the test opens a repeatable-read
 * transaction, takes its snapshot, locks {@value #HELD} delayed jobs ({@code FOR UPDATE}, as a
 * forgotten application transaction that meant to cancel them would) and stays open while two
 * worker JVMs drain 2 000 jobs and {@value #DURING} delayed jobs that fall due after the held ones.
 * No dead row version the workers leave behind can be vacuumed meanwhile (the claim and the
 * completion each leave one), so the claim ({@code FOR UPDATE SKIP LOCKED}, L4) scans past them;
 * the promotion sweep (S3, U2: {@code SKIP LOCKED}) steps over the held rows instead of waiting on
 * them, so the later delayed jobs are promoted and run while the transaction stays open. Jobs keep
 * flowing, none is lost or run twice. Once the transaction ends, the held jobs run and a plain
 * {@code VACUUM} removes the dead versions (nothing of TaskQ's own pins xmin). Figures: the drain
 * time with the pin against the same drain without it, and the dead versions left.
 */
@Tag("R7")
@Tag("L4")
@Tag("U2")
class XminPinTest {
  private static final int JOBS = 2000;
  private static final int HELD = 10;
  private static final int DURING = 20;

  @Test
  void aSnapshotHeldOpenWithLockedRows_slowsNothingIntoLossAndVacuumCatchesUpOnRelease()
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
      long heldWaiting;
      Duration pinnedDrain;
      Duration duringDrain;
      List<Long> held = cluster.enqueueDelayed(HELD, 0, Duration.ofSeconds(3));
      all.addAll(held);
      try (Connection pin = cluster.connect()) {
        pinnedAt = System.nanoTime();
        pinAndLock(cluster, pin, held);
        // Due after the held ones: a promotion that waits on a held row never reaches them.
        List<Long> during = cluster.enqueueDelayed(DURING, 0, Duration.ofSeconds(5));
        List<Long> pinned = cluster.enqueue(JOBS, 0);
        all.addAll(during);
        all.addAll(pinned);
        pinnedDrain = cluster.awaitDrained(pinned, Duration.ofMinutes(4));
        duringDrain = cluster.awaitDrained(during, Duration.ofSeconds(30));
        heldWaiting = waitingAmong(cluster, held);
        vacuum(cluster);
        deadWhilePinned = deadVersions(cluster);
        pin.rollback();
      }
      long heldMillis = (System.nanoTime() - pinnedAt) / 1_000_000;
      Duration heldDrain = cluster.awaitDrained(held, Duration.ofSeconds(30));
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
                  "snapshot held %d ms with %d delayed jobs locked; %d jobs drained in %d ms"
                      + " pinned vs %d ms unpinned; %d delayed jobs due after the locked ones"
                      + " done in %d ms, the locked ones %d ms after the release; dead row"
                      + " versions of jobs VACUUM could not remove: %d pinned, %d after the"
                      + " release",
                  heldMillis,
                  HELD,
                  JOBS,
                  pinnedDrain.toMillis(),
                  unpinned.toMillis(),
                  DURING,
                  duringDrain.toMillis(),
                  heldDrain.toMillis(),
                  deadWhilePinned,
                  deadAfter)));
      assertThat(f.lost()).as("jobs lost").isZero();
      assertThat(f.duplicated()).as("jobs run twice").isZero();
      // The fault was real: the held rows stayed locked, the pin kept the old versions alive...
      assertThat(heldWaiting).as("locked jobs still waiting while held").isEqualTo(HELD);
      assertThat(deadWhilePinned).as("dead versions VACUUM had to keep").isGreaterThan(JOBS);
      // ...and nothing of TaskQ's own pins it: after the release VACUUM removes them.
      assertThat(deadAfter).as("dead versions left after the release").isLessThan(JOBS / 10);
    }
  }

  /**
   * Takes a repeatable-read snapshot and locks the {@code held} jobs' rows in it, then checks the
   * session is idle in transaction with a snapshot: the pin is in place.
   */
  private static void pinAndLock(FaultCluster cluster, Connection pin, List<Long> held)
      throws Exception {
    pin.setAutoCommit(false);
    pin.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
    try (Statement st = pin.createStatement();
        ResultSet rs = st.executeQuery("SELECT count(*) FROM taskq.jobs")) {
      rs.next();
    }
    int locked = 0;
    try (PreparedStatement ps =
        pin.prepareStatement("SELECT id FROM taskq.jobs WHERE id = ANY (?) FOR UPDATE")) {
      Array ids = pin.createArrayOf("bigint", held.toArray());
      ps.setArray(1, ids);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          locked++;
        }
      }
    }
    assertThat(locked).as("delayed jobs locked by the pinning transaction").isEqualTo(HELD);
    assertThat(
            cluster.count(
                "SELECT count(*) FROM pg_stat_activity WHERE backend_xmin IS NOT NULL"
                    + " AND application_name = 'faults-harness' AND state = 'idle in"
                    + " transaction'"))
        .as("the pinning session holds a snapshot")
        .isEqualTo(1);
  }

  /** How many of {@code ids} are still waiting (not run): scheduled or pending. */
  private static long waitingAmong(FaultCluster cluster, List<Long> ids) {
    return cluster.count(
        "SELECT count(*) FROM taskq.jobs WHERE status IN ('scheduled', 'pending') AND id IN ("
            + String.join(",", ids.stream().map(String::valueOf).toList())
            + ")");
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
