package io.taskq.postgres.internal.lease;

import io.taskq.postgres.internal.FencedWrites;
import io.taskq.postgres.internal.NamedStatements;
import io.taskq.postgres.internal.SqlErrors;
import io.taskq.postgres.internal.execution.InFlight;
import io.taskq.postgres.internal.execution.RunningJob;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives leases back before their time (L11): at shutdown for handlers that outlived the grace
 * period, and for jobs the handler executor refused.
 *
 * <p>One transaction: the {@code release} statement (fenced on each token, D9) puts the jobs back
 * to {@code pending}, due now and without using up an attempt, writes their attempt and event rows
 * (B6), and a NOTIFY on the wake channel lets another worker take them at once. The jobs leave
 * {@link InFlight} whatever happens: if the release fails, their leases simply lapse and the lease
 * sweep reclaims them.
 */
public final class LeaseRelease {
  private static final Logger LOG = LoggerFactory.getLogger(LeaseRelease.class);

  private final DataSource dataSource;
  private final String releaseSql;
  private final String wakeSql;
  private final String workerId;
  private final String wakeChannel;
  private final InFlight inFlight;
  private final FencedWrites fenced;
  private final AtomicLong failures = new AtomicLong();

  public LeaseRelease(
      DataSource dataSource,
      NamedStatements statements,
      String workerId,
      String wakeChannel,
      InFlight inFlight,
      FencedWrites fenced) {
    this.dataSource = dataSource;
    this.releaseSql = statements.get("release");
    this.wakeSql = statements.get("wake");
    this.workerId = workerId;
    this.wakeChannel = wakeChannel;
    this.inFlight = inFlight;
    this.fenced = fenced;
  }

  /**
   * Releases the leases of {@code jobs} (already switched to released in memory).
   *
   * @return how many jobs went back to the queue (or to cancelled, when a cancel was in flight)
   */
  public int release(List<RunningJob> jobs) {
    if (jobs.isEmpty()) {
      return 0;
    }
    try {
      Set<Long> released = write(jobs);
      for (RunningJob job : jobs) {
        if (!released.contains(job.leaseToken())) {
          fenced.report("releasing the lease", job.jobId(), job.leaseToken());
        }
      }
      return released.size();
    } catch (SQLException e) {
      failed(jobs.size(), e);
      return 0;
    } finally {
      jobs.forEach(inFlight::remove);
    }
  }

  private void failed(int jobs, SQLException e) {
    failures.incrementAndGet();
    LOG.warn(
        "releasing {} leases failed (SQLSTATE {}); they will lapse and the jobs be"
            + " reclaimed by the lease sweep: {}",
        jobs,
        SqlErrors.state(e),
        e.toString());
  }

  /** Releases that failed so far (their leases lapse instead). */
  public long failures() {
    return failures.get();
  }

  private Set<Long> write(List<RunningJob> jobs) throws SQLException {
    Long[] ids = jobs.stream().map(RunningJob::jobId).toArray(Long[]::new);
    Long[] tokens = jobs.stream().map(RunningJob::leaseToken).toArray(Long[]::new);
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      try {
        Set<Long> released = releaseAll(c, ids, tokens);
        if (!released.isEmpty()) {
          notifyWake(c);
        }
        c.commit();
        return released;
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        throw e;
      } finally {
        c.setAutoCommit(true);
      }
    }
  }

  private Set<Long> releaseAll(Connection c, Long[] ids, Long[] tokens) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(releaseSql)) {
      s.setString(1, workerId);
      s.setArray(2, c.createArrayOf("bigint", ids));
      s.setArray(3, c.createArrayOf("bigint", tokens));
      s.setString(4, wakeChannel);
      Set<Long> released = new HashSet<>();
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          released.add(rs.getLong("lease_token"));
        }
      }
      return released;
    }
  }

  private void notifyWake(Connection c) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(wakeSql)) {
      s.setString(1, wakeChannel);
      s.execute();
    }
  }
}
